//! Shared helpers of the golden tests.
