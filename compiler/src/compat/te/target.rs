//! What `--for te[=VERSION][,cudnn=X.Y][,fa3]` names: a TransformerEngine release, the cuDNN it
//! runs on, and whether FlashAttention 3 is installed beside it.
//!
//! Only the parsing and ordering of those facts live here; what they allow is in `backends.rs`
//! and `asserts.rs`.

use std::fmt;

/// A TransformerEngine release, `MAJOR.MINOR`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TeVersion {
    pub major: u32,
    pub minor: u32,
}

impl TeVersion {
    pub const fn new(major: u32, minor: u32) -> TeVersion {
        TeVersion { major, minor }
    }

    /// `2.10`, `2.10.1`, `2.20.0.dev0` (patch and pre-release parts are ignored: rules change
    /// between minor releases).
    pub fn parse(text: &str) -> Option<TeVersion> {
        let mut parts = text.trim().trim_start_matches('v').split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        Some(TeVersion { major, minor })
    }
}

impl fmt::Display for TeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// A cuDNN release as TE compares it: `cudnnGetVersion()`, e.g. 90600 for 9.6.0 and 91301 for
/// 9.13.1 (`MAJOR·10000 + MINOR·100 + PATCH` from cuDNN 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cudnn(pub u32);

impl Cudnn {
    pub const fn new(major: u32, minor: u32, patch: u32) -> Cudnn {
        Cudnn(major * 10000 + minor * 100 + patch)
    }

    /// `9.6`, `9.13.1`.
    pub fn parse(text: &str) -> Option<Cudnn> {
        let mut parts = text.trim().split('.');
        let major: u32 = parts.next()?.parse().ok()?;
        let minor: u32 = parts.next()?.parse().ok()?;
        let patch: u32 = match parts.next() {
            Some(p) => p.parse().ok()?,
            None => 0,
        };
        (major >= 8 && minor < 100 && patch < 100 && parts.next().is_none()).then(|| Cudnn::new(major, minor, patch))
    }
}

impl fmt::Display for Cudnn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (major, minor, patch) = (self.0 / 10000, self.0 / 100 % 100, self.0 % 100);
        if patch == 0 { write!(f, "{major}.{minor}") } else { write!(f, "{major}.{minor}.{patch}") }
    }
}

/// The oldest release the tables describe.
pub const OLDEST: TeVersion = TeVersion::new(1, 12);
/// The newest release whose sources the tables were read from (`main` at d0067d0da was 2.20.0.dev0).
pub const NEWEST: TeVersion = TeVersion::new(2, 20);
/// Where the newest rules were read.
pub const SNAPSHOT: &str = "TransformerEngine main at d0067d0da (2.20.0.dev0, 2026-08-22)";

/// A layout checked against TE: `--for te` (the newest), `--for te=2.10`, with `,cudnn=9.5` for
/// the cuDNN it runs on (else a cuDNN new enough for every rule, said in a note where a verdict
/// depends on it) and `,fa3` when FlashAttention 3 is installed beside it (flash-attn 2 is
/// assumed installed, as in NVIDIA's PyTorch containers; FlashAttention 3 is not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub version: TeVersion,
    /// `None`: the newest cuDNN (every cuDNN-gated feature available).
    pub cudnn: Option<Cudnn>,
    /// flash-attn 3 (`flash_attn_interface`) is installed.
    pub flash_attn_3: bool,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    #[error("`{0}` is not a target\n  help: write `--for te` (the newest TransformerEngine) or `--for te=2.10`")]
    Unknown(String),
    #[error("`{0}` is not a TransformerEngine version\n  help: write MAJOR.MINOR, e.g. `--for te=2.10`")]
    BadVersion(String),
    #[error(
        "TransformerEngine {0} is older than the support matrix, which starts at {OLDEST}\n  help: write `--for te={OLDEST}` or newer"
    )]
    TooOld(TeVersion),
    #[error("`{0}` is not a cuDNN version\n  help: write MAJOR.MINOR[.PATCH], e.g. `--for te=2.10,cudnn=9.6`")]
    BadCudnn(String),
    #[error(
        "`{0}` is not an option of `--for te`\n  help: the options are `cudnn=X.Y` (the cuDNN TE runs on) and `fa3` (FlashAttention 3 is installed), e.g. `--for te=2.10,cudnn=9.6,fa3`"
    )]
    BadOption(String),
}

impl Target {
    /// The newest TE with the newest cuDNN and no FlashAttention 3.
    pub const fn newest() -> Target {
        Target { version: NEWEST, cudnn: None, flash_attn_3: false }
    }

    /// `te`, `te=2.10`, `te=v2.10.1`, `te=2.10,cudnn=9.6`, `te,fa3`.
    pub fn parse(text: &str) -> Result<Target, TargetError> {
        let mut parts = text.split(',');
        let head = parts.next().unwrap_or_default();
        let (name, version) = match head.split_once('=') {
            Some((name, version)) => (name, Some(version)),
            None => (head, None),
        };
        if !name.eq_ignore_ascii_case("te") && !name.eq_ignore_ascii_case("transformer_engine") {
            return Err(TargetError::Unknown(name.to_string()));
        }
        let version = match version {
            None => NEWEST,
            Some(v) => TeVersion::parse(v).ok_or_else(|| TargetError::BadVersion(v.to_string()))?,
        };
        if version < OLDEST {
            return Err(TargetError::TooOld(version));
        }
        let mut target = Target { version, cudnn: None, flash_attn_3: false };
        for option in parts {
            match option.split_once('=') {
                Some((key, value)) if key.eq_ignore_ascii_case("cudnn") => {
                    target.cudnn = Some(Cudnn::parse(value).ok_or_else(|| TargetError::BadCudnn(value.to_string()))?);
                }
                None if option.eq_ignore_ascii_case("fa3") => target.flash_attn_3 = true,
                _ => return Err(TargetError::BadOption(option.to_string())),
            }
        }
        Ok(target)
    }

    /// Said once when the version is newer than the sources the tables were read from.
    pub fn assumption(&self) -> Option<String> {
        (self.version > NEWEST).then(|| {
            format!(
                "TransformerEngine {} is newer than the support matrix ({SNAPSHOT}); its rules are assumed",
                self.version
            )
        })
    }

    /// `--for` text that names this target (`te=2.10,cudnn=9.6,fa3`).
    pub fn flag(&self) -> String {
        let mut out = format!("te={}", self.version);
        if let Some(c) = self.cudnn {
            out.push_str(&format!(",cudnn={c}"));
        }
        if self.flash_attn_3 {
            out.push_str(",fa3");
        }
        out
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TransformerEngine {}", self.version)?;
        if let Some(c) = self.cudnn {
            write!(f, " on cuDNN {c}")?;
        }
        if self.flash_attn_3 {
            write!(f, " with FlashAttention 3")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse_with_their_options() {
        assert_eq!(TeVersion::parse("2.10"), Some(TeVersion::new(2, 10)));
        assert_eq!(TeVersion::parse("v2.20.0.dev0"), Some(TeVersion::new(2, 20)));
        assert!(TeVersion::new(2, 9) < TeVersion::new(2, 10));
        assert_eq!(Target::parse("te").unwrap(), Target::newest());
        assert_eq!(Target::parse("te=1.12").unwrap().version, OLDEST);
        let t = Target::parse("te=2.10,cudnn=9.13.1,fa3").unwrap();
        assert_eq!((t.version, t.cudnn, t.flash_attn_3), (TeVersion::new(2, 10), Some(Cudnn(91301)), true));
        assert_eq!(t.flag(), "te=2.10,cudnn=9.13.1,fa3");
        assert_eq!(Target::parse(&t.flag()).unwrap(), t);
        assert_eq!(Target::parse("te,fa3").unwrap().version, NEWEST);
        assert_eq!(Target::parse("te=1.11"), Err(TargetError::TooOld(TeVersion::new(1, 11))));
        assert!(matches!(Target::parse("megatron"), Err(TargetError::Unknown(_))));
        assert!(matches!(Target::parse("te=two"), Err(TargetError::BadVersion(_))));
        assert!(matches!(Target::parse("te=2.10,cudnn=nine"), Err(TargetError::BadCudnn(_))));
        assert!(matches!(Target::parse("te=2.10,fa4"), Err(TargetError::BadOption(_))));
        assert!(Target::parse("te=2.21").unwrap().assumption().is_some());
        assert_eq!(Cudnn::parse("9.6").unwrap().to_string(), "9.6");
        assert_eq!(Cudnn::new(9, 13, 1), Cudnn(91301));
    }
}
