; attnc host kernel attn_fwd_d8_causal_fp32_g1_t2x16
target triple = "x86_64-unknown-linux-gnu"

declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>)
declare <4 x float> @llvm.fma.v4f32(<4 x float>, <4 x float>, <4 x float>)
declare <8 x float> @llvm.maxnum.v8f32(<8 x float>, <8 x float>)
declare <8 x float> @llvm.minnum.v8f32(<8 x float>, <8 x float>)
declare <8 x float> @llvm.rint.v8f32(<8 x float>)
declare <8 x float> @llvm.floor.v8f32(<8 x float>)
declare float @llvm.vector.reduce.fmax.v8f32(<8 x float>)
declare float @llvm.vector.reduce.fadd.v8f32(float, <8 x float>)
declare float @llvm.vector.reduce.fadd.v4f32(float, <4 x float>)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.fma.f32(float, float, float)
declare i64 @llvm.smin.i64(i64, i64)
declare i64 @llvm.smax.i64(i64, i64)

define internal <8 x float> @exp2_8(<8 x float> %x) alwaysinline "target-cpu"="x86-64-v3" "target-features"="+avx2,+fma" nounwind {
entry:
  %v1 = fcmp olt <8 x float> %x, <float 0xC05F400000000000, float 0xC05F400000000000, float 0xC05F400000000000, float 0xC05F400000000000, float 0xC05F400000000000, float 0xC05F400000000000, float 0xC05F400000000000, float 0xC05F400000000000>
  %v2 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %x, <8 x float> <float 0xC05F400000000000, float 0xC05F400000000000, float 0xC05F400000000000, float 0xC05F400000000000, float 0xC05F400000000000, float 0xC05F400000000000, float 0xC05F400000000000, float 0xC05F400000000000>)
  %v3 = call <8 x float> @llvm.rint.v8f32(<8 x float> %v2)
  %v4 = fsub <8 x float> %v2, %v3
  %v5 = call <8 x float> @llvm.fma.v8f32(<8 x float> <float 0x3F24309120000000, float 0x3F24309120000000, float 0x3F24309120000000, float 0x3F24309120000000, float 0x3F24309120000000, float 0x3F24309120000000, float 0x3F24309120000000, float 0x3F24309120000000>, <8 x float> %v4, <8 x float> <float 0x3F55D87FE0000000, float 0x3F55D87FE0000000, float 0x3F55D87FE0000000, float 0x3F55D87FE0000000, float 0x3F55D87FE0000000, float 0x3F55D87FE0000000, float 0x3F55D87FE0000000, float 0x3F55D87FE0000000>)
  %v6 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v5, <8 x float> %v4, <8 x float> <float 0x3F83B2AB60000000, float 0x3F83B2AB60000000, float 0x3F83B2AB60000000, float 0x3F83B2AB60000000, float 0x3F83B2AB60000000, float 0x3F83B2AB60000000, float 0x3F83B2AB60000000, float 0x3F83B2AB60000000>)
  %v7 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v6, <8 x float> %v4, <8 x float> <float 0x3FAC6B08E0000000, float 0x3FAC6B08E0000000, float 0x3FAC6B08E0000000, float 0x3FAC6B08E0000000, float 0x3FAC6B08E0000000, float 0x3FAC6B08E0000000, float 0x3FAC6B08E0000000, float 0x3FAC6B08E0000000>)
  %v8 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v7, <8 x float> %v4, <8 x float> <float 0x3FCEBFBE00000000, float 0x3FCEBFBE00000000, float 0x3FCEBFBE00000000, float 0x3FCEBFBE00000000, float 0x3FCEBFBE00000000, float 0x3FCEBFBE00000000, float 0x3FCEBFBE00000000, float 0x3FCEBFBE00000000>)
  %v9 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v8, <8 x float> %v4, <8 x float> <float 0x3FE62E4300000000, float 0x3FE62E4300000000, float 0x3FE62E4300000000, float 0x3FE62E4300000000, float 0x3FE62E4300000000, float 0x3FE62E4300000000, float 0x3FE62E4300000000, float 0x3FE62E4300000000>)
  %v10 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v9, <8 x float> %v4, <8 x float> <float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000>)
  %v11 = fptosi <8 x float> %v3 to <8 x i32>
  %v12 = add <8 x i32> %v11, <i32 127, i32 127, i32 127, i32 127, i32 127, i32 127, i32 127, i32 127>
  %v13 = shl <8 x i32> %v12, <i32 23, i32 23, i32 23, i32 23, i32 23, i32 23, i32 23, i32 23>
  %v14 = bitcast <8 x i32> %v13 to <8 x float>
  %v15 = fmul <8 x float> %v10, %v14
  %v16 = select <8 x i1> %v1, <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, <8 x float> %v15
  ret <8 x float> %v16
}

define internal void @tile4(ptr noalias %q, ptr noalias %state, ptr noalias %kt, ptr noalias %v, i64 %cols, i64 %diff, i1 %masked, float %scale, i64 %nrows, ptr noalias %spare) "target-cpu"="x86-64-v3" "target-features"="+avx2,+fma" nounwind {
entry:
  %slot1 = alloca [96 x float], align 32
  %v2 = icmp slt i64 0, %nrows
  %v3 = icmp slt i64 1, %nrows
  %v4 = icmp slt i64 2, %nrows
  %v5 = icmp slt i64 3, %nrows
  %v6 = getelementptr inbounds float, ptr %q, i64 0
  %v7 = select i1 %v2, ptr %v6, ptr %q
  %v8 = getelementptr inbounds float, ptr %q, i64 8
  %v9 = select i1 %v3, ptr %v8, ptr %q
  %v10 = getelementptr inbounds float, ptr %q, i64 16
  %v11 = select i1 %v4, ptr %v10, ptr %q
  %v12 = getelementptr inbounds float, ptr %q, i64 24
  %v13 = select i1 %v5, ptr %v12, ptr %q
  %v14 = getelementptr inbounds float, ptr %state, i64 0
  %v15 = getelementptr inbounds float, ptr %spare, i64 0
  %v16 = select i1 %v2, ptr %v14, ptr %v15
  %v17 = getelementptr inbounds float, ptr %state, i64 10
  %v18 = getelementptr inbounds float, ptr %spare, i64 10
  %v19 = select i1 %v3, ptr %v17, ptr %v18
  %v20 = getelementptr inbounds float, ptr %state, i64 20
  %v21 = getelementptr inbounds float, ptr %spare, i64 20
  %v22 = select i1 %v4, ptr %v20, ptr %v21
  %v23 = getelementptr inbounds float, ptr %state, i64 30
  %v24 = getelementptr inbounds float, ptr %spare, i64 30
  %v25 = select i1 %v5, ptr %v23, ptr %v24
  br label %pre26
pre26:
  br label %head27
head27:
  %i31 = phi i64 [ 0, %pre26 ], [ %inext32, %latch29 ]
  %carry33 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre26 ], [ %carried34, %latch29 ]
  %carry35 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre26 ], [ %carried36, %latch29 ]
  %carry37 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre26 ], [ %carried38, %latch29 ]
  %carry39 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre26 ], [ %carried40, %latch29 ]
  %carry41 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre26 ], [ %carried42, %latch29 ]
  %carry43 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre26 ], [ %carried44, %latch29 ]
  %carry45 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre26 ], [ %carried46, %latch29 ]
  %carry47 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre26 ], [ %carried48, %latch29 ]
  %carry49 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre26 ], [ %carried50, %latch29 ]
  %carry51 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre26 ], [ %carried52, %latch29 ]
  %carry53 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre26 ], [ %carried54, %latch29 ]
  %carry55 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre26 ], [ %carried56, %latch29 ]
  %v57 = icmp slt i64 %i31, 8
  br i1 %v57, label %body28, label %done30
body28:
  %v58 = mul i64 %i31, 24
  %v59 = getelementptr inbounds float, ptr %kt, i64 %v58
  %v60 = getelementptr inbounds float, ptr %v7, i64 %i31
  %v61 = getelementptr inbounds float, ptr %v9, i64 %i31
  %v62 = getelementptr inbounds float, ptr %v11, i64 %i31
  %v63 = getelementptr inbounds float, ptr %v13, i64 %i31
  %v64 = getelementptr inbounds float, ptr %v59, i64 0
  %v65 = load <8 x float>, ptr %v64, align 4
  %v66 = getelementptr inbounds float, ptr %v59, i64 8
  %v67 = load <8 x float>, ptr %v66, align 4
  %v68 = getelementptr inbounds float, ptr %v59, i64 16
  %v69 = load <8 x float>, ptr %v68, align 4
  %v70 = getelementptr inbounds float, ptr %v60, i64 0
  %v71 = load float, ptr %v70, align 4
  %v72 = insertelement <8 x float> poison, float %v71, i32 0
  %v73 = shufflevector <8 x float> %v72, <8 x float> poison, <8 x i32> zeroinitializer
  %v74 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v73, <8 x float> %v65, <8 x float> %carry33)
  %v75 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v73, <8 x float> %v67, <8 x float> %carry35)
  %v76 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v73, <8 x float> %v69, <8 x float> %carry37)
  %v77 = getelementptr inbounds float, ptr %v61, i64 0
  %v78 = load float, ptr %v77, align 4
  %v79 = insertelement <8 x float> poison, float %v78, i32 0
  %v80 = shufflevector <8 x float> %v79, <8 x float> poison, <8 x i32> zeroinitializer
  %v81 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v80, <8 x float> %v65, <8 x float> %carry39)
  %v82 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v80, <8 x float> %v67, <8 x float> %carry41)
  %v83 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v80, <8 x float> %v69, <8 x float> %carry43)
  %v84 = getelementptr inbounds float, ptr %v62, i64 0
  %v85 = load float, ptr %v84, align 4
  %v86 = insertelement <8 x float> poison, float %v85, i32 0
  %v87 = shufflevector <8 x float> %v86, <8 x float> poison, <8 x i32> zeroinitializer
  %v88 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v87, <8 x float> %v65, <8 x float> %carry45)
  %v89 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v87, <8 x float> %v67, <8 x float> %carry47)
  %v90 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v87, <8 x float> %v69, <8 x float> %carry49)
  %v91 = getelementptr inbounds float, ptr %v63, i64 0
  %v92 = load float, ptr %v91, align 4
  %v93 = insertelement <8 x float> poison, float %v92, i32 0
  %v94 = shufflevector <8 x float> %v93, <8 x float> poison, <8 x i32> zeroinitializer
  %v95 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v94, <8 x float> %v65, <8 x float> %carry51)
  %v96 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v94, <8 x float> %v67, <8 x float> %carry53)
  %v97 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v94, <8 x float> %v69, <8 x float> %carry55)
  %v98 = getelementptr inbounds float, ptr %v59, i64 24
  %v99 = load <8 x float>, ptr %v98, align 4
  %v100 = getelementptr inbounds float, ptr %v59, i64 32
  %v101 = load <8 x float>, ptr %v100, align 4
  %v102 = getelementptr inbounds float, ptr %v59, i64 40
  %v103 = load <8 x float>, ptr %v102, align 4
  %v104 = getelementptr inbounds float, ptr %v60, i64 1
  %v105 = load float, ptr %v104, align 4
  %v106 = insertelement <8 x float> poison, float %v105, i32 0
  %v107 = shufflevector <8 x float> %v106, <8 x float> poison, <8 x i32> zeroinitializer
  %v108 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v107, <8 x float> %v99, <8 x float> %v74)
  %v109 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v107, <8 x float> %v101, <8 x float> %v75)
  %v110 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v107, <8 x float> %v103, <8 x float> %v76)
  %v111 = getelementptr inbounds float, ptr %v61, i64 1
  %v112 = load float, ptr %v111, align 4
  %v113 = insertelement <8 x float> poison, float %v112, i32 0
  %v114 = shufflevector <8 x float> %v113, <8 x float> poison, <8 x i32> zeroinitializer
  %v115 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v114, <8 x float> %v99, <8 x float> %v81)
  %v116 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v114, <8 x float> %v101, <8 x float> %v82)
  %v117 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v114, <8 x float> %v103, <8 x float> %v83)
  %v118 = getelementptr inbounds float, ptr %v62, i64 1
  %v119 = load float, ptr %v118, align 4
  %v120 = insertelement <8 x float> poison, float %v119, i32 0
  %v121 = shufflevector <8 x float> %v120, <8 x float> poison, <8 x i32> zeroinitializer
  %v122 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v99, <8 x float> %v88)
  %v123 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v101, <8 x float> %v89)
  %v124 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v103, <8 x float> %v90)
  %v125 = getelementptr inbounds float, ptr %v63, i64 1
  %v126 = load float, ptr %v125, align 4
  %v127 = insertelement <8 x float> poison, float %v126, i32 0
  %v128 = shufflevector <8 x float> %v127, <8 x float> poison, <8 x i32> zeroinitializer
  %v129 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v128, <8 x float> %v99, <8 x float> %v95)
  %v130 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v128, <8 x float> %v101, <8 x float> %v96)
  %v131 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v128, <8 x float> %v103, <8 x float> %v97)
  %v132 = getelementptr inbounds float, ptr %v59, i64 48
  %v133 = load <8 x float>, ptr %v132, align 4
  %v134 = getelementptr inbounds float, ptr %v59, i64 56
  %v135 = load <8 x float>, ptr %v134, align 4
  %v136 = getelementptr inbounds float, ptr %v59, i64 64
  %v137 = load <8 x float>, ptr %v136, align 4
  %v138 = getelementptr inbounds float, ptr %v60, i64 2
  %v139 = load float, ptr %v138, align 4
  %v140 = insertelement <8 x float> poison, float %v139, i32 0
  %v141 = shufflevector <8 x float> %v140, <8 x float> poison, <8 x i32> zeroinitializer
  %v142 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v141, <8 x float> %v133, <8 x float> %v108)
  %v143 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v141, <8 x float> %v135, <8 x float> %v109)
  %v144 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v141, <8 x float> %v137, <8 x float> %v110)
  %v145 = getelementptr inbounds float, ptr %v61, i64 2
  %v146 = load float, ptr %v145, align 4
  %v147 = insertelement <8 x float> poison, float %v146, i32 0
  %v148 = shufflevector <8 x float> %v147, <8 x float> poison, <8 x i32> zeroinitializer
  %v149 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v148, <8 x float> %v133, <8 x float> %v115)
  %v150 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v148, <8 x float> %v135, <8 x float> %v116)
  %v151 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v148, <8 x float> %v137, <8 x float> %v117)
  %v152 = getelementptr inbounds float, ptr %v62, i64 2
  %v153 = load float, ptr %v152, align 4
  %v154 = insertelement <8 x float> poison, float %v153, i32 0
  %v155 = shufflevector <8 x float> %v154, <8 x float> poison, <8 x i32> zeroinitializer
  %v156 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v155, <8 x float> %v133, <8 x float> %v122)
  %v157 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v155, <8 x float> %v135, <8 x float> %v123)
  %v158 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v155, <8 x float> %v137, <8 x float> %v124)
  %v159 = getelementptr inbounds float, ptr %v63, i64 2
  %v160 = load float, ptr %v159, align 4
  %v161 = insertelement <8 x float> poison, float %v160, i32 0
  %v162 = shufflevector <8 x float> %v161, <8 x float> poison, <8 x i32> zeroinitializer
  %v163 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v162, <8 x float> %v133, <8 x float> %v129)
  %v164 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v162, <8 x float> %v135, <8 x float> %v130)
  %v165 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v162, <8 x float> %v137, <8 x float> %v131)
  %v166 = getelementptr inbounds float, ptr %v59, i64 72
  %v167 = load <8 x float>, ptr %v166, align 4
  %v168 = getelementptr inbounds float, ptr %v59, i64 80
  %v169 = load <8 x float>, ptr %v168, align 4
  %v170 = getelementptr inbounds float, ptr %v59, i64 88
  %v171 = load <8 x float>, ptr %v170, align 4
  %v172 = getelementptr inbounds float, ptr %v60, i64 3
  %v173 = load float, ptr %v172, align 4
  %v174 = insertelement <8 x float> poison, float %v173, i32 0
  %v175 = shufflevector <8 x float> %v174, <8 x float> poison, <8 x i32> zeroinitializer
  %v176 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v175, <8 x float> %v167, <8 x float> %v142)
  %v177 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v175, <8 x float> %v169, <8 x float> %v143)
  %v178 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v175, <8 x float> %v171, <8 x float> %v144)
  %v179 = getelementptr inbounds float, ptr %v61, i64 3
  %v180 = load float, ptr %v179, align 4
  %v181 = insertelement <8 x float> poison, float %v180, i32 0
  %v182 = shufflevector <8 x float> %v181, <8 x float> poison, <8 x i32> zeroinitializer
  %v183 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v182, <8 x float> %v167, <8 x float> %v149)
  %v184 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v182, <8 x float> %v169, <8 x float> %v150)
  %v185 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v182, <8 x float> %v171, <8 x float> %v151)
  %v186 = getelementptr inbounds float, ptr %v62, i64 3
  %v187 = load float, ptr %v186, align 4
  %v188 = insertelement <8 x float> poison, float %v187, i32 0
  %v189 = shufflevector <8 x float> %v188, <8 x float> poison, <8 x i32> zeroinitializer
  %v190 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v189, <8 x float> %v167, <8 x float> %v156)
  %v191 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v189, <8 x float> %v169, <8 x float> %v157)
  %v192 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v189, <8 x float> %v171, <8 x float> %v158)
  %v193 = getelementptr inbounds float, ptr %v63, i64 3
  %v194 = load float, ptr %v193, align 4
  %v195 = insertelement <8 x float> poison, float %v194, i32 0
  %v196 = shufflevector <8 x float> %v195, <8 x float> poison, <8 x i32> zeroinitializer
  %v197 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v196, <8 x float> %v167, <8 x float> %v163)
  %v198 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v196, <8 x float> %v169, <8 x float> %v164)
  %v199 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v196, <8 x float> %v171, <8 x float> %v165)
  %v200 = getelementptr inbounds float, ptr %v59, i64 96
  %v201 = load <8 x float>, ptr %v200, align 4
  %v202 = getelementptr inbounds float, ptr %v59, i64 104
  %v203 = load <8 x float>, ptr %v202, align 4
  %v204 = getelementptr inbounds float, ptr %v59, i64 112
  %v205 = load <8 x float>, ptr %v204, align 4
  %v206 = getelementptr inbounds float, ptr %v60, i64 4
  %v207 = load float, ptr %v206, align 4
  %v208 = insertelement <8 x float> poison, float %v207, i32 0
  %v209 = shufflevector <8 x float> %v208, <8 x float> poison, <8 x i32> zeroinitializer
  %v210 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v209, <8 x float> %v201, <8 x float> %v176)
  %v211 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v209, <8 x float> %v203, <8 x float> %v177)
  %v212 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v209, <8 x float> %v205, <8 x float> %v178)
  %v213 = getelementptr inbounds float, ptr %v61, i64 4
  %v214 = load float, ptr %v213, align 4
  %v215 = insertelement <8 x float> poison, float %v214, i32 0
  %v216 = shufflevector <8 x float> %v215, <8 x float> poison, <8 x i32> zeroinitializer
  %v217 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v216, <8 x float> %v201, <8 x float> %v183)
  %v218 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v216, <8 x float> %v203, <8 x float> %v184)
  %v219 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v216, <8 x float> %v205, <8 x float> %v185)
  %v220 = getelementptr inbounds float, ptr %v62, i64 4
  %v221 = load float, ptr %v220, align 4
  %v222 = insertelement <8 x float> poison, float %v221, i32 0
  %v223 = shufflevector <8 x float> %v222, <8 x float> poison, <8 x i32> zeroinitializer
  %v224 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v223, <8 x float> %v201, <8 x float> %v190)
  %v225 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v223, <8 x float> %v203, <8 x float> %v191)
  %v226 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v223, <8 x float> %v205, <8 x float> %v192)
  %v227 = getelementptr inbounds float, ptr %v63, i64 4
  %v228 = load float, ptr %v227, align 4
  %v229 = insertelement <8 x float> poison, float %v228, i32 0
  %v230 = shufflevector <8 x float> %v229, <8 x float> poison, <8 x i32> zeroinitializer
  %v231 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v230, <8 x float> %v201, <8 x float> %v197)
  %v232 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v230, <8 x float> %v203, <8 x float> %v198)
  %v233 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v230, <8 x float> %v205, <8 x float> %v199)
  %v234 = getelementptr inbounds float, ptr %v59, i64 120
  %v235 = load <8 x float>, ptr %v234, align 4
  %v236 = getelementptr inbounds float, ptr %v59, i64 128
  %v237 = load <8 x float>, ptr %v236, align 4
  %v238 = getelementptr inbounds float, ptr %v59, i64 136
  %v239 = load <8 x float>, ptr %v238, align 4
  %v240 = getelementptr inbounds float, ptr %v60, i64 5
  %v241 = load float, ptr %v240, align 4
  %v242 = insertelement <8 x float> poison, float %v241, i32 0
  %v243 = shufflevector <8 x float> %v242, <8 x float> poison, <8 x i32> zeroinitializer
  %v244 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v243, <8 x float> %v235, <8 x float> %v210)
  %v245 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v243, <8 x float> %v237, <8 x float> %v211)
  %v246 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v243, <8 x float> %v239, <8 x float> %v212)
  %v247 = getelementptr inbounds float, ptr %v61, i64 5
  %v248 = load float, ptr %v247, align 4
  %v249 = insertelement <8 x float> poison, float %v248, i32 0
  %v250 = shufflevector <8 x float> %v249, <8 x float> poison, <8 x i32> zeroinitializer
  %v251 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v250, <8 x float> %v235, <8 x float> %v217)
  %v252 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v250, <8 x float> %v237, <8 x float> %v218)
  %v253 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v250, <8 x float> %v239, <8 x float> %v219)
  %v254 = getelementptr inbounds float, ptr %v62, i64 5
  %v255 = load float, ptr %v254, align 4
  %v256 = insertelement <8 x float> poison, float %v255, i32 0
  %v257 = shufflevector <8 x float> %v256, <8 x float> poison, <8 x i32> zeroinitializer
  %v258 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v257, <8 x float> %v235, <8 x float> %v224)
  %v259 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v257, <8 x float> %v237, <8 x float> %v225)
  %v260 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v257, <8 x float> %v239, <8 x float> %v226)
  %v261 = getelementptr inbounds float, ptr %v63, i64 5
  %v262 = load float, ptr %v261, align 4
  %v263 = insertelement <8 x float> poison, float %v262, i32 0
  %v264 = shufflevector <8 x float> %v263, <8 x float> poison, <8 x i32> zeroinitializer
  %v265 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v264, <8 x float> %v235, <8 x float> %v231)
  %v266 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v264, <8 x float> %v237, <8 x float> %v232)
  %v267 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v264, <8 x float> %v239, <8 x float> %v233)
  %v268 = getelementptr inbounds float, ptr %v59, i64 144
  %v269 = load <8 x float>, ptr %v268, align 4
  %v270 = getelementptr inbounds float, ptr %v59, i64 152
  %v271 = load <8 x float>, ptr %v270, align 4
  %v272 = getelementptr inbounds float, ptr %v59, i64 160
  %v273 = load <8 x float>, ptr %v272, align 4
  %v274 = getelementptr inbounds float, ptr %v60, i64 6
  %v275 = load float, ptr %v274, align 4
  %v276 = insertelement <8 x float> poison, float %v275, i32 0
  %v277 = shufflevector <8 x float> %v276, <8 x float> poison, <8 x i32> zeroinitializer
  %v278 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v277, <8 x float> %v269, <8 x float> %v244)
  %v279 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v277, <8 x float> %v271, <8 x float> %v245)
  %v280 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v277, <8 x float> %v273, <8 x float> %v246)
  %v281 = getelementptr inbounds float, ptr %v61, i64 6
  %v282 = load float, ptr %v281, align 4
  %v283 = insertelement <8 x float> poison, float %v282, i32 0
  %v284 = shufflevector <8 x float> %v283, <8 x float> poison, <8 x i32> zeroinitializer
  %v285 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v284, <8 x float> %v269, <8 x float> %v251)
  %v286 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v284, <8 x float> %v271, <8 x float> %v252)
  %v287 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v284, <8 x float> %v273, <8 x float> %v253)
  %v288 = getelementptr inbounds float, ptr %v62, i64 6
  %v289 = load float, ptr %v288, align 4
  %v290 = insertelement <8 x float> poison, float %v289, i32 0
  %v291 = shufflevector <8 x float> %v290, <8 x float> poison, <8 x i32> zeroinitializer
  %v292 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v291, <8 x float> %v269, <8 x float> %v258)
  %v293 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v291, <8 x float> %v271, <8 x float> %v259)
  %v294 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v291, <8 x float> %v273, <8 x float> %v260)
  %v295 = getelementptr inbounds float, ptr %v63, i64 6
  %v296 = load float, ptr %v295, align 4
  %v297 = insertelement <8 x float> poison, float %v296, i32 0
  %v298 = shufflevector <8 x float> %v297, <8 x float> poison, <8 x i32> zeroinitializer
  %v299 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v298, <8 x float> %v269, <8 x float> %v265)
  %v300 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v298, <8 x float> %v271, <8 x float> %v266)
  %v301 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v298, <8 x float> %v273, <8 x float> %v267)
  %v302 = getelementptr inbounds float, ptr %v59, i64 168
  %v303 = load <8 x float>, ptr %v302, align 4
  %v304 = getelementptr inbounds float, ptr %v59, i64 176
  %v305 = load <8 x float>, ptr %v304, align 4
  %v306 = getelementptr inbounds float, ptr %v59, i64 184
  %v307 = load <8 x float>, ptr %v306, align 4
  %v308 = getelementptr inbounds float, ptr %v60, i64 7
  %v309 = load float, ptr %v308, align 4
  %v310 = insertelement <8 x float> poison, float %v309, i32 0
  %v311 = shufflevector <8 x float> %v310, <8 x float> poison, <8 x i32> zeroinitializer
  %v312 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v311, <8 x float> %v303, <8 x float> %v278)
  %v313 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v311, <8 x float> %v305, <8 x float> %v279)
  %v314 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v311, <8 x float> %v307, <8 x float> %v280)
  %v315 = getelementptr inbounds float, ptr %v61, i64 7
  %v316 = load float, ptr %v315, align 4
  %v317 = insertelement <8 x float> poison, float %v316, i32 0
  %v318 = shufflevector <8 x float> %v317, <8 x float> poison, <8 x i32> zeroinitializer
  %v319 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v318, <8 x float> %v303, <8 x float> %v285)
  %v320 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v318, <8 x float> %v305, <8 x float> %v286)
  %v321 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v318, <8 x float> %v307, <8 x float> %v287)
  %v322 = getelementptr inbounds float, ptr %v62, i64 7
  %v323 = load float, ptr %v322, align 4
  %v324 = insertelement <8 x float> poison, float %v323, i32 0
  %v325 = shufflevector <8 x float> %v324, <8 x float> poison, <8 x i32> zeroinitializer
  %v326 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v325, <8 x float> %v303, <8 x float> %v292)
  %v327 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v325, <8 x float> %v305, <8 x float> %v293)
  %v328 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v325, <8 x float> %v307, <8 x float> %v294)
  %v329 = getelementptr inbounds float, ptr %v63, i64 7
  %v330 = load float, ptr %v329, align 4
  %v331 = insertelement <8 x float> poison, float %v330, i32 0
  %v332 = shufflevector <8 x float> %v331, <8 x float> poison, <8 x i32> zeroinitializer
  %v333 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v332, <8 x float> %v303, <8 x float> %v299)
  %v334 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v332, <8 x float> %v305, <8 x float> %v300)
  %v335 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v332, <8 x float> %v307, <8 x float> %v301)
  br label %latch29
latch29:
  %carried34 = select i1 true, <8 x float> %v312, <8 x float> %v312
  %carried36 = select i1 true, <8 x float> %v313, <8 x float> %v313
  %carried38 = select i1 true, <8 x float> %v314, <8 x float> %v314
  %carried40 = select i1 true, <8 x float> %v319, <8 x float> %v319
  %carried42 = select i1 true, <8 x float> %v320, <8 x float> %v320
  %carried44 = select i1 true, <8 x float> %v321, <8 x float> %v321
  %carried46 = select i1 true, <8 x float> %v326, <8 x float> %v326
  %carried48 = select i1 true, <8 x float> %v327, <8 x float> %v327
  %carried50 = select i1 true, <8 x float> %v328, <8 x float> %v328
  %carried52 = select i1 true, <8 x float> %v333, <8 x float> %v333
  %carried54 = select i1 true, <8 x float> %v334, <8 x float> %v334
  %carried56 = select i1 true, <8 x float> %v335, <8 x float> %v335
  %inext32 = add i64 %i31, 8
  br label %head27
done30:
  br label %nomask338
nomask338:
  br i1 %masked, label %mask336, label %masked337
mask336:
  %v339 = trunc i64 %cols to i32
  %v340 = insertelement <8 x i32> poison, i32 %v339, i32 0
  %v341 = shufflevector <8 x i32> %v340, <8 x i32> poison, <8 x i32> zeroinitializer
  %v342 = trunc i64 %diff to i32
  %v343 = add i32 %v342, 0
  %v344 = insertelement <8 x i32> poison, i32 %v343, i32 0
  %v345 = shufflevector <8 x i32> %v344, <8 x i32> poison, <8 x i32> zeroinitializer
  %v346 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v341
  %v347 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v345
  %v348 = and <8 x i1> %v346, %v347
  %v349 = select <8 x i1> %v348, <8 x float> %carry33, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v350 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v341
  %v351 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v345
  %v352 = and <8 x i1> %v350, %v351
  %v353 = select <8 x i1> %v352, <8 x float> %carry35, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v354 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v341
  %v355 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v345
  %v356 = and <8 x i1> %v354, %v355
  %v357 = select <8 x i1> %v356, <8 x float> %carry37, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v358 = add i32 %v342, 1
  %v359 = insertelement <8 x i32> poison, i32 %v358, i32 0
  %v360 = shufflevector <8 x i32> %v359, <8 x i32> poison, <8 x i32> zeroinitializer
  %v361 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v341
  %v362 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v360
  %v363 = and <8 x i1> %v361, %v362
  %v364 = select <8 x i1> %v363, <8 x float> %carry39, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v365 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v341
  %v366 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v360
  %v367 = and <8 x i1> %v365, %v366
  %v368 = select <8 x i1> %v367, <8 x float> %carry41, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v369 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v341
  %v370 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v360
  %v371 = and <8 x i1> %v369, %v370
  %v372 = select <8 x i1> %v371, <8 x float> %carry43, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v373 = add i32 %v342, 2
  %v374 = insertelement <8 x i32> poison, i32 %v373, i32 0
  %v375 = shufflevector <8 x i32> %v374, <8 x i32> poison, <8 x i32> zeroinitializer
  %v376 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v341
  %v377 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v375
  %v378 = and <8 x i1> %v376, %v377
  %v379 = select <8 x i1> %v378, <8 x float> %carry45, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v380 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v341
  %v381 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v375
  %v382 = and <8 x i1> %v380, %v381
  %v383 = select <8 x i1> %v382, <8 x float> %carry47, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v384 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v341
  %v385 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v375
  %v386 = and <8 x i1> %v384, %v385
  %v387 = select <8 x i1> %v386, <8 x float> %carry49, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v388 = add i32 %v342, 3
  %v389 = insertelement <8 x i32> poison, i32 %v388, i32 0
  %v390 = shufflevector <8 x i32> %v389, <8 x i32> poison, <8 x i32> zeroinitializer
  %v391 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v341
  %v392 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v390
  %v393 = and <8 x i1> %v391, %v392
  %v394 = select <8 x i1> %v393, <8 x float> %carry51, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v395 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v341
  %v396 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v390
  %v397 = and <8 x i1> %v395, %v396
  %v398 = select <8 x i1> %v397, <8 x float> %carry53, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v399 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v341
  %v400 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v390
  %v401 = and <8 x i1> %v399, %v400
  %v402 = select <8 x i1> %v401, <8 x float> %carry55, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  br label %masked337
masked337:
  %v403 = phi <8 x float> [ %carry33, %nomask338 ], [ %v349, %mask336 ]
  %v404 = phi <8 x float> [ %carry35, %nomask338 ], [ %v353, %mask336 ]
  %v405 = phi <8 x float> [ %carry37, %nomask338 ], [ %v357, %mask336 ]
  %v406 = phi <8 x float> [ %carry39, %nomask338 ], [ %v364, %mask336 ]
  %v407 = phi <8 x float> [ %carry41, %nomask338 ], [ %v368, %mask336 ]
  %v408 = phi <8 x float> [ %carry43, %nomask338 ], [ %v372, %mask336 ]
  %v409 = phi <8 x float> [ %carry45, %nomask338 ], [ %v379, %mask336 ]
  %v410 = phi <8 x float> [ %carry47, %nomask338 ], [ %v383, %mask336 ]
  %v411 = phi <8 x float> [ %carry49, %nomask338 ], [ %v387, %mask336 ]
  %v412 = phi <8 x float> [ %carry51, %nomask338 ], [ %v394, %mask336 ]
  %v413 = phi <8 x float> [ %carry53, %nomask338 ], [ %v398, %mask336 ]
  %v414 = phi <8 x float> [ %carry55, %nomask338 ], [ %v402, %mask336 ]
  %v415 = fmul float %scale, 0x3FF7154760000000
  %v416 = insertelement <8 x float> poison, float %v415, i32 0
  %v417 = shufflevector <8 x float> %v416, <8 x float> poison, <8 x i32> zeroinitializer
  %v418 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v403, <8 x float> %v404)
  %v419 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v418, <8 x float> %v405)
  %v420 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v419)
  %v421 = fmul float %v420, %scale
  %v422 = load float, ptr %v16, align 4
  %v423 = call float @llvm.maxnum.f32(float %v422, float %v421)
  %v424 = fcmp oeq float %v423, 0xFFF0000000000000
  %v425 = select i1 %v424, float 0x0000000000000000, float %v423
  %v426 = fmul float %v425, 0xBFF7154760000000
  %v427 = insertelement <8 x float> poison, float %v426, i32 0
  %v428 = shufflevector <8 x float> %v427, <8 x float> poison, <8 x i32> zeroinitializer
  %v429 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v403, <8 x float> %v417, <8 x float> %v428)
  %v430 = call <8 x float> @exp2_8(<8 x float> %v429)
  %v431 = getelementptr inbounds float, ptr %slot1, i64 0
  store <8 x float> %v430, ptr %v431, align 4
  %v432 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v404, <8 x float> %v417, <8 x float> %v428)
  %v433 = call <8 x float> @exp2_8(<8 x float> %v432)
  %v434 = getelementptr inbounds float, ptr %slot1, i64 8
  store <8 x float> %v433, ptr %v434, align 4
  %v435 = fadd <8 x float> %v430, %v433
  %v436 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v405, <8 x float> %v417, <8 x float> %v428)
  %v437 = call <8 x float> @exp2_8(<8 x float> %v436)
  %v438 = getelementptr inbounds float, ptr %slot1, i64 16
  store <8 x float> %v437, ptr %v438, align 4
  %v439 = fadd <8 x float> %v435, %v437
  %v440 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v439)
  %v441 = fsub float %v422, %v425
  %v442 = fmul float %v441, 0x3FF7154760000000
  %v443 = fcmp une float %v423, %v422
  %v444 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v406, <8 x float> %v407)
  %v445 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v444, <8 x float> %v408)
  %v446 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v445)
  %v447 = fmul float %v446, %scale
  %v448 = load float, ptr %v19, align 4
  %v449 = call float @llvm.maxnum.f32(float %v448, float %v447)
  %v450 = fcmp oeq float %v449, 0xFFF0000000000000
  %v451 = select i1 %v450, float 0x0000000000000000, float %v449
  %v452 = fmul float %v451, 0xBFF7154760000000
  %v453 = insertelement <8 x float> poison, float %v452, i32 0
  %v454 = shufflevector <8 x float> %v453, <8 x float> poison, <8 x i32> zeroinitializer
  %v455 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v406, <8 x float> %v417, <8 x float> %v454)
  %v456 = call <8 x float> @exp2_8(<8 x float> %v455)
  %v457 = getelementptr inbounds float, ptr %slot1, i64 24
  store <8 x float> %v456, ptr %v457, align 4
  %v458 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v407, <8 x float> %v417, <8 x float> %v454)
  %v459 = call <8 x float> @exp2_8(<8 x float> %v458)
  %v460 = getelementptr inbounds float, ptr %slot1, i64 32
  store <8 x float> %v459, ptr %v460, align 4
  %v461 = fadd <8 x float> %v456, %v459
  %v462 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v408, <8 x float> %v417, <8 x float> %v454)
  %v463 = call <8 x float> @exp2_8(<8 x float> %v462)
  %v464 = getelementptr inbounds float, ptr %slot1, i64 40
  store <8 x float> %v463, ptr %v464, align 4
  %v465 = fadd <8 x float> %v461, %v463
  %v466 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v465)
  %v467 = fsub float %v448, %v451
  %v468 = fmul float %v467, 0x3FF7154760000000
  %v469 = fcmp une float %v449, %v448
  %v470 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v409, <8 x float> %v410)
  %v471 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v470, <8 x float> %v411)
  %v472 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v471)
  %v473 = fmul float %v472, %scale
  %v474 = load float, ptr %v22, align 4
  %v475 = call float @llvm.maxnum.f32(float %v474, float %v473)
  %v476 = fcmp oeq float %v475, 0xFFF0000000000000
  %v477 = select i1 %v476, float 0x0000000000000000, float %v475
  %v478 = fmul float %v477, 0xBFF7154760000000
  %v479 = insertelement <8 x float> poison, float %v478, i32 0
  %v480 = shufflevector <8 x float> %v479, <8 x float> poison, <8 x i32> zeroinitializer
  %v481 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v409, <8 x float> %v417, <8 x float> %v480)
  %v482 = call <8 x float> @exp2_8(<8 x float> %v481)
  %v483 = getelementptr inbounds float, ptr %slot1, i64 48
  store <8 x float> %v482, ptr %v483, align 4
  %v484 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v410, <8 x float> %v417, <8 x float> %v480)
  %v485 = call <8 x float> @exp2_8(<8 x float> %v484)
  %v486 = getelementptr inbounds float, ptr %slot1, i64 56
  store <8 x float> %v485, ptr %v486, align 4
  %v487 = fadd <8 x float> %v482, %v485
  %v488 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v411, <8 x float> %v417, <8 x float> %v480)
  %v489 = call <8 x float> @exp2_8(<8 x float> %v488)
  %v490 = getelementptr inbounds float, ptr %slot1, i64 64
  store <8 x float> %v489, ptr %v490, align 4
  %v491 = fadd <8 x float> %v487, %v489
  %v492 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v491)
  %v493 = fsub float %v474, %v477
  %v494 = fmul float %v493, 0x3FF7154760000000
  %v495 = fcmp une float %v475, %v474
  %v496 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v412, <8 x float> %v413)
  %v497 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v496, <8 x float> %v414)
  %v498 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v497)
  %v499 = fmul float %v498, %scale
  %v500 = load float, ptr %v25, align 4
  %v501 = call float @llvm.maxnum.f32(float %v500, float %v499)
  %v502 = fcmp oeq float %v501, 0xFFF0000000000000
  %v503 = select i1 %v502, float 0x0000000000000000, float %v501
  %v504 = fmul float %v503, 0xBFF7154760000000
  %v505 = insertelement <8 x float> poison, float %v504, i32 0
  %v506 = shufflevector <8 x float> %v505, <8 x float> poison, <8 x i32> zeroinitializer
  %v507 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v412, <8 x float> %v417, <8 x float> %v506)
  %v508 = call <8 x float> @exp2_8(<8 x float> %v507)
  %v509 = getelementptr inbounds float, ptr %slot1, i64 72
  store <8 x float> %v508, ptr %v509, align 4
  %v510 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v413, <8 x float> %v417, <8 x float> %v506)
  %v511 = call <8 x float> @exp2_8(<8 x float> %v510)
  %v512 = getelementptr inbounds float, ptr %slot1, i64 80
  store <8 x float> %v511, ptr %v512, align 4
  %v513 = fadd <8 x float> %v508, %v511
  %v514 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v414, <8 x float> %v417, <8 x float> %v506)
  %v515 = call <8 x float> @exp2_8(<8 x float> %v514)
  %v516 = getelementptr inbounds float, ptr %slot1, i64 88
  store <8 x float> %v515, ptr %v516, align 4
  %v517 = fadd <8 x float> %v513, %v515
  %v518 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v517)
  %v519 = fsub float %v500, %v503
  %v520 = fmul float %v519, 0x3FF7154760000000
  %v521 = fcmp une float %v501, %v500
  %v522 = insertelement <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, float %v442, i32 0
  %v523 = insertelement <8 x float> %v522, float %v468, i32 1
  %v524 = insertelement <8 x float> %v523, float %v494, i32 2
  %v525 = insertelement <8 x float> %v524, float %v520, i32 3
  %v526 = call <8 x float> @exp2_8(<8 x float> %v525)
  %v527 = extractelement <8 x float> %v526, i32 0
  %v528 = getelementptr inbounds float, ptr %v16, i64 1
  %v529 = load float, ptr %v528, align 4
  %v530 = call float @llvm.fma.f32(float %v529, float %v527, float %v440)
  store float %v530, ptr %v528, align 4
  store float %v423, ptr %v16, align 4
  %v531 = insertelement <8 x float> poison, float %v527, i32 0
  %v532 = shufflevector <8 x float> %v531, <8 x float> poison, <8 x i32> zeroinitializer
  %v533 = or i1 false, %v443
  %v534 = extractelement <8 x float> %v526, i32 1
  %v535 = getelementptr inbounds float, ptr %v19, i64 1
  %v536 = load float, ptr %v535, align 4
  %v537 = call float @llvm.fma.f32(float %v536, float %v534, float %v466)
  store float %v537, ptr %v535, align 4
  store float %v449, ptr %v19, align 4
  %v538 = insertelement <8 x float> poison, float %v534, i32 0
  %v539 = shufflevector <8 x float> %v538, <8 x float> poison, <8 x i32> zeroinitializer
  %v540 = or i1 %v533, %v469
  %v541 = extractelement <8 x float> %v526, i32 2
  %v542 = getelementptr inbounds float, ptr %v22, i64 1
  %v543 = load float, ptr %v542, align 4
  %v544 = call float @llvm.fma.f32(float %v543, float %v541, float %v492)
  store float %v544, ptr %v542, align 4
  store float %v475, ptr %v22, align 4
  %v545 = insertelement <8 x float> poison, float %v541, i32 0
  %v546 = shufflevector <8 x float> %v545, <8 x float> poison, <8 x i32> zeroinitializer
  %v547 = or i1 %v540, %v495
  %v548 = extractelement <8 x float> %v526, i32 3
  %v549 = getelementptr inbounds float, ptr %v25, i64 1
  %v550 = load float, ptr %v549, align 4
  %v551 = call float @llvm.fma.f32(float %v550, float %v548, float %v518)
  store float %v551, ptr %v549, align 4
  store float %v501, ptr %v25, align 4
  %v552 = insertelement <8 x float> poison, float %v548, i32 0
  %v553 = shufflevector <8 x float> %v552, <8 x float> poison, <8 x i32> zeroinitializer
  %v554 = or i1 %v547, %v521
  br i1 %v554, label %pv_scaled555, label %pv_plain556
pv_scaled555:
  %v558 = getelementptr inbounds float, ptr %v16, i64 2
  %v559 = load <8 x float>, ptr %v558, align 4
  %v560 = fmul <8 x float> %v559, %v532
  %v561 = getelementptr inbounds float, ptr %v19, i64 2
  %v562 = load <8 x float>, ptr %v561, align 4
  %v563 = fmul <8 x float> %v562, %v539
  %v564 = getelementptr inbounds float, ptr %v22, i64 2
  %v565 = load <8 x float>, ptr %v564, align 4
  %v566 = fmul <8 x float> %v565, %v546
  %v567 = getelementptr inbounds float, ptr %v25, i64 2
  %v568 = load <8 x float>, ptr %v567, align 4
  %v569 = fmul <8 x float> %v568, %v553
  %v570 = sdiv i64 %cols, 4
  %v571 = mul i64 %v570, 4
  br label %pre572
pre572:
  br label %head573
head573:
  %i577 = phi i64 [ 0, %pre572 ], [ %inext578, %latch575 ]
  %carry579 = phi <8 x float> [ %v560, %pre572 ], [ %carried580, %latch575 ]
  %carry581 = phi <8 x float> [ %v563, %pre572 ], [ %carried582, %latch575 ]
  %carry583 = phi <8 x float> [ %v566, %pre572 ], [ %carried584, %latch575 ]
  %carry585 = phi <8 x float> [ %v569, %pre572 ], [ %carried586, %latch575 ]
  %v587 = icmp slt i64 %i577, %v571
  br i1 %v587, label %body574, label %done576
body574:
  %v588 = add i64 %i577, 0
  %v589 = mul i64 %v588, 8
  %v590 = getelementptr inbounds float, ptr %v, i64 %v589
  %v591 = getelementptr inbounds float, ptr %v590, i64 0
  %v592 = load <8 x float>, ptr %v591, align 4
  %v593 = add i64 %v588, 0
  %v594 = getelementptr inbounds float, ptr %slot1, i64 %v593
  %v595 = load float, ptr %v594, align 4
  %v596 = insertelement <8 x float> poison, float %v595, i32 0
  %v597 = shufflevector <8 x float> %v596, <8 x float> poison, <8 x i32> zeroinitializer
  %v598 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v597, <8 x float> %v592, <8 x float> %carry579)
  %v599 = add i64 %v588, 24
  %v600 = getelementptr inbounds float, ptr %slot1, i64 %v599
  %v601 = load float, ptr %v600, align 4
  %v602 = insertelement <8 x float> poison, float %v601, i32 0
  %v603 = shufflevector <8 x float> %v602, <8 x float> poison, <8 x i32> zeroinitializer
  %v604 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v603, <8 x float> %v592, <8 x float> %carry581)
  %v605 = add i64 %v588, 48
  %v606 = getelementptr inbounds float, ptr %slot1, i64 %v605
  %v607 = load float, ptr %v606, align 4
  %v608 = insertelement <8 x float> poison, float %v607, i32 0
  %v609 = shufflevector <8 x float> %v608, <8 x float> poison, <8 x i32> zeroinitializer
  %v610 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v609, <8 x float> %v592, <8 x float> %carry583)
  %v611 = add i64 %v588, 72
  %v612 = getelementptr inbounds float, ptr %slot1, i64 %v611
  %v613 = load float, ptr %v612, align 4
  %v614 = insertelement <8 x float> poison, float %v613, i32 0
  %v615 = shufflevector <8 x float> %v614, <8 x float> poison, <8 x i32> zeroinitializer
  %v616 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v615, <8 x float> %v592, <8 x float> %carry585)
  %v617 = add i64 %i577, 1
  %v618 = mul i64 %v617, 8
  %v619 = getelementptr inbounds float, ptr %v, i64 %v618
  %v620 = getelementptr inbounds float, ptr %v619, i64 0
  %v621 = load <8 x float>, ptr %v620, align 4
  %v622 = add i64 %v617, 0
  %v623 = getelementptr inbounds float, ptr %slot1, i64 %v622
  %v624 = load float, ptr %v623, align 4
  %v625 = insertelement <8 x float> poison, float %v624, i32 0
  %v626 = shufflevector <8 x float> %v625, <8 x float> poison, <8 x i32> zeroinitializer
  %v627 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v626, <8 x float> %v621, <8 x float> %v598)
  %v628 = add i64 %v617, 24
  %v629 = getelementptr inbounds float, ptr %slot1, i64 %v628
  %v630 = load float, ptr %v629, align 4
  %v631 = insertelement <8 x float> poison, float %v630, i32 0
  %v632 = shufflevector <8 x float> %v631, <8 x float> poison, <8 x i32> zeroinitializer
  %v633 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v632, <8 x float> %v621, <8 x float> %v604)
  %v634 = add i64 %v617, 48
  %v635 = getelementptr inbounds float, ptr %slot1, i64 %v634
  %v636 = load float, ptr %v635, align 4
  %v637 = insertelement <8 x float> poison, float %v636, i32 0
  %v638 = shufflevector <8 x float> %v637, <8 x float> poison, <8 x i32> zeroinitializer
  %v639 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v638, <8 x float> %v621, <8 x float> %v610)
  %v640 = add i64 %v617, 72
  %v641 = getelementptr inbounds float, ptr %slot1, i64 %v640
  %v642 = load float, ptr %v641, align 4
  %v643 = insertelement <8 x float> poison, float %v642, i32 0
  %v644 = shufflevector <8 x float> %v643, <8 x float> poison, <8 x i32> zeroinitializer
  %v645 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v644, <8 x float> %v621, <8 x float> %v616)
  %v646 = add i64 %i577, 2
  %v647 = mul i64 %v646, 8
  %v648 = getelementptr inbounds float, ptr %v, i64 %v647
  %v649 = getelementptr inbounds float, ptr %v648, i64 0
  %v650 = load <8 x float>, ptr %v649, align 4
  %v651 = add i64 %v646, 0
  %v652 = getelementptr inbounds float, ptr %slot1, i64 %v651
  %v653 = load float, ptr %v652, align 4
  %v654 = insertelement <8 x float> poison, float %v653, i32 0
  %v655 = shufflevector <8 x float> %v654, <8 x float> poison, <8 x i32> zeroinitializer
  %v656 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v655, <8 x float> %v650, <8 x float> %v627)
  %v657 = add i64 %v646, 24
  %v658 = getelementptr inbounds float, ptr %slot1, i64 %v657
  %v659 = load float, ptr %v658, align 4
  %v660 = insertelement <8 x float> poison, float %v659, i32 0
  %v661 = shufflevector <8 x float> %v660, <8 x float> poison, <8 x i32> zeroinitializer
  %v662 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v661, <8 x float> %v650, <8 x float> %v633)
  %v663 = add i64 %v646, 48
  %v664 = getelementptr inbounds float, ptr %slot1, i64 %v663
  %v665 = load float, ptr %v664, align 4
  %v666 = insertelement <8 x float> poison, float %v665, i32 0
  %v667 = shufflevector <8 x float> %v666, <8 x float> poison, <8 x i32> zeroinitializer
  %v668 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v667, <8 x float> %v650, <8 x float> %v639)
  %v669 = add i64 %v646, 72
  %v670 = getelementptr inbounds float, ptr %slot1, i64 %v669
  %v671 = load float, ptr %v670, align 4
  %v672 = insertelement <8 x float> poison, float %v671, i32 0
  %v673 = shufflevector <8 x float> %v672, <8 x float> poison, <8 x i32> zeroinitializer
  %v674 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v673, <8 x float> %v650, <8 x float> %v645)
  %v675 = add i64 %i577, 3
  %v676 = mul i64 %v675, 8
  %v677 = getelementptr inbounds float, ptr %v, i64 %v676
  %v678 = getelementptr inbounds float, ptr %v677, i64 0
  %v679 = load <8 x float>, ptr %v678, align 4
  %v680 = add i64 %v675, 0
  %v681 = getelementptr inbounds float, ptr %slot1, i64 %v680
  %v682 = load float, ptr %v681, align 4
  %v683 = insertelement <8 x float> poison, float %v682, i32 0
  %v684 = shufflevector <8 x float> %v683, <8 x float> poison, <8 x i32> zeroinitializer
  %v685 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v684, <8 x float> %v679, <8 x float> %v656)
  %v686 = add i64 %v675, 24
  %v687 = getelementptr inbounds float, ptr %slot1, i64 %v686
  %v688 = load float, ptr %v687, align 4
  %v689 = insertelement <8 x float> poison, float %v688, i32 0
  %v690 = shufflevector <8 x float> %v689, <8 x float> poison, <8 x i32> zeroinitializer
  %v691 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v690, <8 x float> %v679, <8 x float> %v662)
  %v692 = add i64 %v675, 48
  %v693 = getelementptr inbounds float, ptr %slot1, i64 %v692
  %v694 = load float, ptr %v693, align 4
  %v695 = insertelement <8 x float> poison, float %v694, i32 0
  %v696 = shufflevector <8 x float> %v695, <8 x float> poison, <8 x i32> zeroinitializer
  %v697 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v696, <8 x float> %v679, <8 x float> %v668)
  %v698 = add i64 %v675, 72
  %v699 = getelementptr inbounds float, ptr %slot1, i64 %v698
  %v700 = load float, ptr %v699, align 4
  %v701 = insertelement <8 x float> poison, float %v700, i32 0
  %v702 = shufflevector <8 x float> %v701, <8 x float> poison, <8 x i32> zeroinitializer
  %v703 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v702, <8 x float> %v679, <8 x float> %v674)
  br label %latch575
latch575:
  %carried580 = select i1 true, <8 x float> %v685, <8 x float> %v685
  %carried582 = select i1 true, <8 x float> %v691, <8 x float> %v691
  %carried584 = select i1 true, <8 x float> %v697, <8 x float> %v697
  %carried586 = select i1 true, <8 x float> %v703, <8 x float> %v703
  %inext578 = add i64 %i577, 4
  br label %head573
done576:
  br label %pre704
pre704:
  br label %head705
head705:
  %i709 = phi i64 [ %v571, %pre704 ], [ %inext710, %latch707 ]
  %carry711 = phi <8 x float> [ %carry579, %pre704 ], [ %carried712, %latch707 ]
  %carry713 = phi <8 x float> [ %carry581, %pre704 ], [ %carried714, %latch707 ]
  %carry715 = phi <8 x float> [ %carry583, %pre704 ], [ %carried716, %latch707 ]
  %carry717 = phi <8 x float> [ %carry585, %pre704 ], [ %carried718, %latch707 ]
  %v719 = icmp slt i64 %i709, %cols
  br i1 %v719, label %body706, label %done708
body706:
  %v720 = mul i64 %i709, 8
  %v721 = getelementptr inbounds float, ptr %v, i64 %v720
  %v722 = getelementptr inbounds float, ptr %v721, i64 0
  %v723 = load <8 x float>, ptr %v722, align 4
  %v724 = add i64 %i709, 0
  %v725 = getelementptr inbounds float, ptr %slot1, i64 %v724
  %v726 = load float, ptr %v725, align 4
  %v727 = insertelement <8 x float> poison, float %v726, i32 0
  %v728 = shufflevector <8 x float> %v727, <8 x float> poison, <8 x i32> zeroinitializer
  %v729 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v728, <8 x float> %v723, <8 x float> %carry711)
  %v730 = add i64 %i709, 24
  %v731 = getelementptr inbounds float, ptr %slot1, i64 %v730
  %v732 = load float, ptr %v731, align 4
  %v733 = insertelement <8 x float> poison, float %v732, i32 0
  %v734 = shufflevector <8 x float> %v733, <8 x float> poison, <8 x i32> zeroinitializer
  %v735 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v734, <8 x float> %v723, <8 x float> %carry713)
  %v736 = add i64 %i709, 48
  %v737 = getelementptr inbounds float, ptr %slot1, i64 %v736
  %v738 = load float, ptr %v737, align 4
  %v739 = insertelement <8 x float> poison, float %v738, i32 0
  %v740 = shufflevector <8 x float> %v739, <8 x float> poison, <8 x i32> zeroinitializer
  %v741 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v740, <8 x float> %v723, <8 x float> %carry715)
  %v742 = add i64 %i709, 72
  %v743 = getelementptr inbounds float, ptr %slot1, i64 %v742
  %v744 = load float, ptr %v743, align 4
  %v745 = insertelement <8 x float> poison, float %v744, i32 0
  %v746 = shufflevector <8 x float> %v745, <8 x float> poison, <8 x i32> zeroinitializer
  %v747 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v746, <8 x float> %v723, <8 x float> %carry717)
  br label %latch707
latch707:
  %carried712 = select i1 true, <8 x float> %v729, <8 x float> %v729
  %carried714 = select i1 true, <8 x float> %v735, <8 x float> %v735
  %carried716 = select i1 true, <8 x float> %v741, <8 x float> %v741
  %carried718 = select i1 true, <8 x float> %v747, <8 x float> %v747
  %inext710 = add i64 %i709, 1
  br label %head705
done708:
  %v748 = getelementptr inbounds float, ptr %v16, i64 2
  store <8 x float> %carry711, ptr %v748, align 4
  %v749 = getelementptr inbounds float, ptr %v19, i64 2
  store <8 x float> %carry713, ptr %v749, align 4
  %v750 = getelementptr inbounds float, ptr %v22, i64 2
  store <8 x float> %carry715, ptr %v750, align 4
  %v751 = getelementptr inbounds float, ptr %v25, i64 2
  store <8 x float> %carry717, ptr %v751, align 4
  br label %pv_done557
pv_plain556:
  %v752 = getelementptr inbounds float, ptr %v16, i64 2
  %v753 = load <8 x float>, ptr %v752, align 4
  %v754 = getelementptr inbounds float, ptr %v19, i64 2
  %v755 = load <8 x float>, ptr %v754, align 4
  %v756 = getelementptr inbounds float, ptr %v22, i64 2
  %v757 = load <8 x float>, ptr %v756, align 4
  %v758 = getelementptr inbounds float, ptr %v25, i64 2
  %v759 = load <8 x float>, ptr %v758, align 4
  %v760 = sdiv i64 %cols, 4
  %v761 = mul i64 %v760, 4
  br label %pre762
pre762:
  br label %head763
head763:
  %i767 = phi i64 [ 0, %pre762 ], [ %inext768, %latch765 ]
  %carry769 = phi <8 x float> [ %v753, %pre762 ], [ %carried770, %latch765 ]
  %carry771 = phi <8 x float> [ %v755, %pre762 ], [ %carried772, %latch765 ]
  %carry773 = phi <8 x float> [ %v757, %pre762 ], [ %carried774, %latch765 ]
  %carry775 = phi <8 x float> [ %v759, %pre762 ], [ %carried776, %latch765 ]
  %v777 = icmp slt i64 %i767, %v761
  br i1 %v777, label %body764, label %done766
body764:
  %v778 = add i64 %i767, 0
  %v779 = mul i64 %v778, 8
  %v780 = getelementptr inbounds float, ptr %v, i64 %v779
  %v781 = getelementptr inbounds float, ptr %v780, i64 0
  %v782 = load <8 x float>, ptr %v781, align 4
  %v783 = add i64 %v778, 0
  %v784 = getelementptr inbounds float, ptr %slot1, i64 %v783
  %v785 = load float, ptr %v784, align 4
  %v786 = insertelement <8 x float> poison, float %v785, i32 0
  %v787 = shufflevector <8 x float> %v786, <8 x float> poison, <8 x i32> zeroinitializer
  %v788 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v787, <8 x float> %v782, <8 x float> %carry769)
  %v789 = add i64 %v778, 24
  %v790 = getelementptr inbounds float, ptr %slot1, i64 %v789
  %v791 = load float, ptr %v790, align 4
  %v792 = insertelement <8 x float> poison, float %v791, i32 0
  %v793 = shufflevector <8 x float> %v792, <8 x float> poison, <8 x i32> zeroinitializer
  %v794 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v793, <8 x float> %v782, <8 x float> %carry771)
  %v795 = add i64 %v778, 48
  %v796 = getelementptr inbounds float, ptr %slot1, i64 %v795
  %v797 = load float, ptr %v796, align 4
  %v798 = insertelement <8 x float> poison, float %v797, i32 0
  %v799 = shufflevector <8 x float> %v798, <8 x float> poison, <8 x i32> zeroinitializer
  %v800 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v799, <8 x float> %v782, <8 x float> %carry773)
  %v801 = add i64 %v778, 72
  %v802 = getelementptr inbounds float, ptr %slot1, i64 %v801
  %v803 = load float, ptr %v802, align 4
  %v804 = insertelement <8 x float> poison, float %v803, i32 0
  %v805 = shufflevector <8 x float> %v804, <8 x float> poison, <8 x i32> zeroinitializer
  %v806 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v805, <8 x float> %v782, <8 x float> %carry775)
  %v807 = add i64 %i767, 1
  %v808 = mul i64 %v807, 8
  %v809 = getelementptr inbounds float, ptr %v, i64 %v808
  %v810 = getelementptr inbounds float, ptr %v809, i64 0
  %v811 = load <8 x float>, ptr %v810, align 4
  %v812 = add i64 %v807, 0
  %v813 = getelementptr inbounds float, ptr %slot1, i64 %v812
  %v814 = load float, ptr %v813, align 4
  %v815 = insertelement <8 x float> poison, float %v814, i32 0
  %v816 = shufflevector <8 x float> %v815, <8 x float> poison, <8 x i32> zeroinitializer
  %v817 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v816, <8 x float> %v811, <8 x float> %v788)
  %v818 = add i64 %v807, 24
  %v819 = getelementptr inbounds float, ptr %slot1, i64 %v818
  %v820 = load float, ptr %v819, align 4
  %v821 = insertelement <8 x float> poison, float %v820, i32 0
  %v822 = shufflevector <8 x float> %v821, <8 x float> poison, <8 x i32> zeroinitializer
  %v823 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v822, <8 x float> %v811, <8 x float> %v794)
  %v824 = add i64 %v807, 48
  %v825 = getelementptr inbounds float, ptr %slot1, i64 %v824
  %v826 = load float, ptr %v825, align 4
  %v827 = insertelement <8 x float> poison, float %v826, i32 0
  %v828 = shufflevector <8 x float> %v827, <8 x float> poison, <8 x i32> zeroinitializer
  %v829 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v828, <8 x float> %v811, <8 x float> %v800)
  %v830 = add i64 %v807, 72
  %v831 = getelementptr inbounds float, ptr %slot1, i64 %v830
  %v832 = load float, ptr %v831, align 4
  %v833 = insertelement <8 x float> poison, float %v832, i32 0
  %v834 = shufflevector <8 x float> %v833, <8 x float> poison, <8 x i32> zeroinitializer
  %v835 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v834, <8 x float> %v811, <8 x float> %v806)
  %v836 = add i64 %i767, 2
  %v837 = mul i64 %v836, 8
  %v838 = getelementptr inbounds float, ptr %v, i64 %v837
  %v839 = getelementptr inbounds float, ptr %v838, i64 0
  %v840 = load <8 x float>, ptr %v839, align 4
  %v841 = add i64 %v836, 0
  %v842 = getelementptr inbounds float, ptr %slot1, i64 %v841
  %v843 = load float, ptr %v842, align 4
  %v844 = insertelement <8 x float> poison, float %v843, i32 0
  %v845 = shufflevector <8 x float> %v844, <8 x float> poison, <8 x i32> zeroinitializer
  %v846 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v845, <8 x float> %v840, <8 x float> %v817)
  %v847 = add i64 %v836, 24
  %v848 = getelementptr inbounds float, ptr %slot1, i64 %v847
  %v849 = load float, ptr %v848, align 4
  %v850 = insertelement <8 x float> poison, float %v849, i32 0
  %v851 = shufflevector <8 x float> %v850, <8 x float> poison, <8 x i32> zeroinitializer
  %v852 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v851, <8 x float> %v840, <8 x float> %v823)
  %v853 = add i64 %v836, 48
  %v854 = getelementptr inbounds float, ptr %slot1, i64 %v853
  %v855 = load float, ptr %v854, align 4
  %v856 = insertelement <8 x float> poison, float %v855, i32 0
  %v857 = shufflevector <8 x float> %v856, <8 x float> poison, <8 x i32> zeroinitializer
  %v858 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v857, <8 x float> %v840, <8 x float> %v829)
  %v859 = add i64 %v836, 72
  %v860 = getelementptr inbounds float, ptr %slot1, i64 %v859
  %v861 = load float, ptr %v860, align 4
  %v862 = insertelement <8 x float> poison, float %v861, i32 0
  %v863 = shufflevector <8 x float> %v862, <8 x float> poison, <8 x i32> zeroinitializer
  %v864 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v863, <8 x float> %v840, <8 x float> %v835)
  %v865 = add i64 %i767, 3
  %v866 = mul i64 %v865, 8
  %v867 = getelementptr inbounds float, ptr %v, i64 %v866
  %v868 = getelementptr inbounds float, ptr %v867, i64 0
  %v869 = load <8 x float>, ptr %v868, align 4
  %v870 = add i64 %v865, 0
  %v871 = getelementptr inbounds float, ptr %slot1, i64 %v870
  %v872 = load float, ptr %v871, align 4
  %v873 = insertelement <8 x float> poison, float %v872, i32 0
  %v874 = shufflevector <8 x float> %v873, <8 x float> poison, <8 x i32> zeroinitializer
  %v875 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v874, <8 x float> %v869, <8 x float> %v846)
  %v876 = add i64 %v865, 24
  %v877 = getelementptr inbounds float, ptr %slot1, i64 %v876
  %v878 = load float, ptr %v877, align 4
  %v879 = insertelement <8 x float> poison, float %v878, i32 0
  %v880 = shufflevector <8 x float> %v879, <8 x float> poison, <8 x i32> zeroinitializer
  %v881 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v880, <8 x float> %v869, <8 x float> %v852)
  %v882 = add i64 %v865, 48
  %v883 = getelementptr inbounds float, ptr %slot1, i64 %v882
  %v884 = load float, ptr %v883, align 4
  %v885 = insertelement <8 x float> poison, float %v884, i32 0
  %v886 = shufflevector <8 x float> %v885, <8 x float> poison, <8 x i32> zeroinitializer
  %v887 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v886, <8 x float> %v869, <8 x float> %v858)
  %v888 = add i64 %v865, 72
  %v889 = getelementptr inbounds float, ptr %slot1, i64 %v888
  %v890 = load float, ptr %v889, align 4
  %v891 = insertelement <8 x float> poison, float %v890, i32 0
  %v892 = shufflevector <8 x float> %v891, <8 x float> poison, <8 x i32> zeroinitializer
  %v893 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v892, <8 x float> %v869, <8 x float> %v864)
  br label %latch765
latch765:
  %carried770 = select i1 true, <8 x float> %v875, <8 x float> %v875
  %carried772 = select i1 true, <8 x float> %v881, <8 x float> %v881
  %carried774 = select i1 true, <8 x float> %v887, <8 x float> %v887
  %carried776 = select i1 true, <8 x float> %v893, <8 x float> %v893
  %inext768 = add i64 %i767, 4
  br label %head763
done766:
  br label %pre894
pre894:
  br label %head895
head895:
  %i899 = phi i64 [ %v761, %pre894 ], [ %inext900, %latch897 ]
  %carry901 = phi <8 x float> [ %carry769, %pre894 ], [ %carried902, %latch897 ]
  %carry903 = phi <8 x float> [ %carry771, %pre894 ], [ %carried904, %latch897 ]
  %carry905 = phi <8 x float> [ %carry773, %pre894 ], [ %carried906, %latch897 ]
  %carry907 = phi <8 x float> [ %carry775, %pre894 ], [ %carried908, %latch897 ]
  %v909 = icmp slt i64 %i899, %cols
  br i1 %v909, label %body896, label %done898
body896:
  %v910 = mul i64 %i899, 8
  %v911 = getelementptr inbounds float, ptr %v, i64 %v910
  %v912 = getelementptr inbounds float, ptr %v911, i64 0
  %v913 = load <8 x float>, ptr %v912, align 4
  %v914 = add i64 %i899, 0
  %v915 = getelementptr inbounds float, ptr %slot1, i64 %v914
  %v916 = load float, ptr %v915, align 4
  %v917 = insertelement <8 x float> poison, float %v916, i32 0
  %v918 = shufflevector <8 x float> %v917, <8 x float> poison, <8 x i32> zeroinitializer
  %v919 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v918, <8 x float> %v913, <8 x float> %carry901)
  %v920 = add i64 %i899, 24
  %v921 = getelementptr inbounds float, ptr %slot1, i64 %v920
  %v922 = load float, ptr %v921, align 4
  %v923 = insertelement <8 x float> poison, float %v922, i32 0
  %v924 = shufflevector <8 x float> %v923, <8 x float> poison, <8 x i32> zeroinitializer
  %v925 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v924, <8 x float> %v913, <8 x float> %carry903)
  %v926 = add i64 %i899, 48
  %v927 = getelementptr inbounds float, ptr %slot1, i64 %v926
  %v928 = load float, ptr %v927, align 4
  %v929 = insertelement <8 x float> poison, float %v928, i32 0
  %v930 = shufflevector <8 x float> %v929, <8 x float> poison, <8 x i32> zeroinitializer
  %v931 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v930, <8 x float> %v913, <8 x float> %carry905)
  %v932 = add i64 %i899, 72
  %v933 = getelementptr inbounds float, ptr %slot1, i64 %v932
  %v934 = load float, ptr %v933, align 4
  %v935 = insertelement <8 x float> poison, float %v934, i32 0
  %v936 = shufflevector <8 x float> %v935, <8 x float> poison, <8 x i32> zeroinitializer
  %v937 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v936, <8 x float> %v913, <8 x float> %carry907)
  br label %latch897
latch897:
  %carried902 = select i1 true, <8 x float> %v919, <8 x float> %v919
  %carried904 = select i1 true, <8 x float> %v925, <8 x float> %v925
  %carried906 = select i1 true, <8 x float> %v931, <8 x float> %v931
  %carried908 = select i1 true, <8 x float> %v937, <8 x float> %v937
  %inext900 = add i64 %i899, 1
  br label %head895
done898:
  %v938 = getelementptr inbounds float, ptr %v16, i64 2
  store <8 x float> %carry901, ptr %v938, align 4
  %v939 = getelementptr inbounds float, ptr %v19, i64 2
  store <8 x float> %carry903, ptr %v939, align 4
  %v940 = getelementptr inbounds float, ptr %v22, i64 2
  store <8 x float> %carry905, ptr %v940, align 4
  %v941 = getelementptr inbounds float, ptr %v25, i64 2
  store <8 x float> %carry907, ptr %v941, align 4
  br label %pv_done557
pv_done557:
  ret void
}

define void @attn_fwd_d8_causal_fp32_g1_t2x16(ptr noalias %args) "target-cpu"="x86-64-v3" "target-features"="+avx2,+fma" nounwind {
entry:
  %slot16 = alloca [192 x float], align 32
  %slot17 = alloca [192 x float], align 32
  %slot18 = alloca [40 x float], align 32
  %v1 = getelementptr inbounds i8, ptr %args, i64 0
  %v2 = load ptr, ptr %v1, align 8
  %v3 = getelementptr inbounds i8, ptr %args, i64 8
  %v4 = load ptr, ptr %v3, align 8
  %v5 = getelementptr inbounds i8, ptr %args, i64 24
  %v6 = load ptr, ptr %v5, align 8
  %v7 = getelementptr inbounds float, ptr %v6, i64 160
  %v8 = getelementptr inbounds i8, ptr %args, i64 16
  %v9 = load ptr, ptr %v8, align 8
  %v10 = getelementptr inbounds i8, ptr %args, i64 88
  %v11 = load ptr, ptr %v10, align 8
  %v12 = getelementptr inbounds i8, ptr %args, i64 96
  %v13 = load i64, ptr %v12, align 8
  %v14 = getelementptr inbounds i8, ptr %args, i64 104
  %v15 = load i64, ptr %v14, align 8
  br label %pre19
pre19:
  br label %head20
head20:
  %i24 = phi i64 [ 0, %pre19 ], [ %inext25, %latch22 ]
  %v26 = icmp slt i64 %i24, 40
  br i1 %v26, label %body21, label %done23
body21:
  %v27 = getelementptr inbounds float, ptr %slot18, i64 %i24
  store float 0x0000000000000000, ptr %v27, align 4
  br label %latch22
latch22:
  %inext25 = add i64 %i24, 1
  br label %head20
done23:
  %v28 = getelementptr inbounds float, ptr %slot18, i64 0
  store float 0xFFF0000000000000, ptr %v28, align 4
  %v29 = getelementptr inbounds float, ptr %slot18, i64 10
  store float 0xFFF0000000000000, ptr %v29, align 4
  %v30 = getelementptr inbounds float, ptr %slot18, i64 20
  store float 0xFFF0000000000000, ptr %v30, align 4
  %v31 = getelementptr inbounds float, ptr %slot18, i64 30
  store float 0xFFF0000000000000, ptr %v31, align 4
  %v32 = getelementptr inbounds i8, ptr %args, i64 32
  %v33 = load i64, ptr %v32, align 8
  %v34 = getelementptr inbounds i8, ptr %args, i64 40
  %v35 = load i64, ptr %v34, align 8
  %v36 = getelementptr inbounds i8, ptr %args, i64 48
  %v37 = load i64, ptr %v36, align 8
  %v38 = getelementptr inbounds i8, ptr %args, i64 56
  %v39 = load i64, ptr %v38, align 8
  %v40 = getelementptr inbounds i8, ptr %args, i64 64
  %v41 = load i64, ptr %v40, align 8
  %v42 = getelementptr inbounds i8, ptr %args, i64 72
  %v43 = load float, ptr %v42, align 4
  br label %pre44
pre44:
  br label %head45
head45:
  %i49 = phi i64 [ 0, %pre44 ], [ %inext50, %latch47 ]
  %v51 = icmp slt i64 %i49, %v35
  br i1 %v51, label %body46, label %done48
body46:
  %v52 = add i64 %i49, 256
  %v53 = call i64 @llvm.smin.i64(i64 %v52, i64 %v35)
  %v54 = sub i64 %v53, %i49
  br label %pre55
pre55:
  br label %head56
head56:
  %i60 = phi i64 [ 0, %pre55 ], [ %inext61, %latch58 ]
  %v62 = icmp slt i64 %i60, %v54
  br i1 %v62, label %body57, label %done59
body57:
  %v63 = mul i64 %i60, 10
  %v64 = getelementptr inbounds float, ptr %v7, i64 %v63
  store float 0xFFF0000000000000, ptr %v64, align 4
  %v65 = getelementptr inbounds float, ptr %v64, i64 1
  store float 0x0000000000000000, ptr %v65, align 4
  %v66 = getelementptr inbounds float, ptr %v64, i64 2
  store <8 x float> zeroinitializer, ptr %v66, align 4
  br label %latch58
latch58:
  %inext61 = add i64 %i60, 1
  br label %head56
done59:
  %v67 = add i64 %v39, %i49
  %v68 = add i64 %v39, %v53
  %v69 = sub i64 %v68, 1
  %v70 = add i64 %v69, 1
  %v71 = sub i64 %v70, %v41
  %v72 = call i64 @llvm.smax.i64(i64 %v71, i64 0)
  %v73 = call i64 @llvm.smin.i64(i64 %v72, i64 %v37)
  br label %pre74
pre74:
  br label %head75
head75:
  %i79 = phi i64 [ 0, %pre74 ], [ %inext80, %latch77 ]
  %v81 = icmp slt i64 %i79, %v73
  br i1 %v81, label %body76, label %done78
body76:
  %v82 = sub i64 %v73, %i79
  %v83 = call i64 @llvm.smin.i64(i64 %v82, i64 24)
  br label %pre84
pre84:
  br label %head85
head85:
  %i89 = phi i64 [ 0, %pre84 ], [ %inext90, %latch87 ]
  %v91 = icmp slt i64 %i89, %v83
  br i1 %v91, label %body86, label %done88
body86:
  %v92 = add i64 %i79, %i89
  %v93 = mul i64 %v92, %v33
  %v94 = getelementptr inbounds float, ptr %v4, i64 %v93
  %v95 = getelementptr inbounds float, ptr %v94, i64 0
  %v96 = load float, ptr %v95, align 4
  %v97 = add i64 %i89, 0
  %v98 = getelementptr inbounds float, ptr %slot16, i64 %v97
  store float %v96, ptr %v98, align 4
  %v99 = getelementptr inbounds float, ptr %v94, i64 1
  %v100 = load float, ptr %v99, align 4
  %v101 = add i64 %i89, 24
  %v102 = getelementptr inbounds float, ptr %slot16, i64 %v101
  store float %v100, ptr %v102, align 4
  %v103 = getelementptr inbounds float, ptr %v94, i64 2
  %v104 = load float, ptr %v103, align 4
  %v105 = add i64 %i89, 48
  %v106 = getelementptr inbounds float, ptr %slot16, i64 %v105
  store float %v104, ptr %v106, align 4
  %v107 = getelementptr inbounds float, ptr %v94, i64 3
  %v108 = load float, ptr %v107, align 4
  %v109 = add i64 %i89, 72
  %v110 = getelementptr inbounds float, ptr %slot16, i64 %v109
  store float %v108, ptr %v110, align 4
  %v111 = getelementptr inbounds float, ptr %v94, i64 4
  %v112 = load float, ptr %v111, align 4
  %v113 = add i64 %i89, 96
  %v114 = getelementptr inbounds float, ptr %slot16, i64 %v113
  store float %v112, ptr %v114, align 4
  %v115 = getelementptr inbounds float, ptr %v94, i64 5
  %v116 = load float, ptr %v115, align 4
  %v117 = add i64 %i89, 120
  %v118 = getelementptr inbounds float, ptr %slot16, i64 %v117
  store float %v116, ptr %v118, align 4
  %v119 = getelementptr inbounds float, ptr %v94, i64 6
  %v120 = load float, ptr %v119, align 4
  %v121 = add i64 %i89, 144
  %v122 = getelementptr inbounds float, ptr %slot16, i64 %v121
  store float %v120, ptr %v122, align 4
  %v123 = getelementptr inbounds float, ptr %v94, i64 7
  %v124 = load float, ptr %v123, align 4
  %v125 = add i64 %i89, 168
  %v126 = getelementptr inbounds float, ptr %slot16, i64 %v125
  store float %v124, ptr %v126, align 4
  %v127 = getelementptr inbounds float, ptr %v94, i64 8
  %v128 = mul i64 %i89, 8
  %v129 = getelementptr inbounds float, ptr %slot17, i64 %v128
  %v130 = getelementptr inbounds float, ptr %v127, i64 0
  %v131 = load <8 x float>, ptr %v130, align 4
  %v132 = getelementptr inbounds float, ptr %v129, i64 0
  store <8 x float> %v131, ptr %v132, align 4
  br label %latch87
latch87:
  %inext90 = add i64 %i89, 1
  br label %head85
done88:
  %v133 = add i64 %v41, %i79
  %v134 = add i64 %v133, %v83
  %v135 = sub i64 %v134, 1
  %v136 = sub i64 %v133, %v39
  %v137 = call i64 @llvm.smax.i64(i64 %v136, i64 0)
  %v138 = call i64 @llvm.smin.i64(i64 %v137, i64 %v35)
  %v139 = sdiv i64 %v138, 2
  %v140 = mul i64 %v139, 2
  %v141 = add i64 %v35, 1
  %v142 = sdiv i64 %v141, 2
  %v143 = mul i64 %v142, 2
  %v144 = call i64 @llvm.smax.i64(i64 %v140, i64 %i49)
  %v145 = call i64 @llvm.smin.i64(i64 %v143, i64 %v53)
  %v146 = icmp slt i64 %v83, 24
  %v147 = sub i64 %v145, %v144
  %v148 = call i64 @llvm.smax.i64(i64 %v147, i64 0)
  %v149 = sdiv i64 %v148, 4
  %v150 = mul i64 %v149, 4
  %v151 = add i64 %v144, %v150
  br label %pre152
pre152:
  br label %head153
head153:
  %i157 = phi i64 [ %v144, %pre152 ], [ %inext158, %latch155 ]
  %v159 = icmp slt i64 %i157, %v151
  br i1 %v159, label %body154, label %done156
body154:
  %v160 = add i64 %v39, %i157
  %v161 = add i64 %v160, 4
  %v162 = sub i64 %v161, 1
  %v163 = icmp sgt i64 %v135, %v160
  %v164 = or i1 %v146, %v163
  %v165 = sub i64 %v160, %v133
  %v166 = call i64 @llvm.smax.i64(i64 %v165, i64 -1073741824)
  %v167 = call i64 @llvm.smin.i64(i64 %v166, i64 1073741824)
  %v168 = mul i64 %i157, 8
  %v169 = getelementptr inbounds float, ptr %v2, i64 %v168
  %v170 = sub i64 %i157, %i49
  %v171 = mul i64 %v170, 10
  %v172 = getelementptr inbounds float, ptr %v7, i64 %v171
  call void @tile4(ptr %v169, ptr %v172, ptr %slot16, ptr %slot17, i64 %v83, i64 %v167, i1 %v164, float %v43, i64 4, ptr %slot18)
  br label %latch155
latch155:
  %inext158 = add i64 %i157, 4
  br label %head153
done156:
  %v173 = sub i64 %v148, %v150
  %v174 = icmp sgt i64 %v173, 0
  br i1 %v174, label %then175, label %endif176
then175:
  %v177 = add i64 %v39, %v151
  %v178 = add i64 %v177, %v173
  %v179 = sub i64 %v178, 1
  %v180 = icmp sgt i64 %v135, %v177
  %v181 = or i1 %v146, %v180
  %v182 = sub i64 %v177, %v133
  %v183 = call i64 @llvm.smax.i64(i64 %v182, i64 -1073741824)
  %v184 = call i64 @llvm.smin.i64(i64 %v183, i64 1073741824)
  %v185 = mul i64 %v151, 8
  %v186 = getelementptr inbounds float, ptr %v2, i64 %v185
  %v187 = sub i64 %v151, %i49
  %v188 = mul i64 %v187, 10
  %v189 = getelementptr inbounds float, ptr %v7, i64 %v188
  call void @tile4(ptr %v186, ptr %v189, ptr %slot16, ptr %slot17, i64 %v83, i64 %v184, i1 %v181, float %v43, i64 %v173, ptr %slot18)
  br label %endif176
endif176:
  br label %latch77
latch77:
  %inext80 = add i64 %i79, 24
  br label %head75
done78:
  br label %pre190
pre190:
  br label %head191
head191:
  %i195 = phi i64 [ %i49, %pre190 ], [ %inext196, %latch193 ]
  %v197 = icmp slt i64 %i195, %v53
  br i1 %v197, label %body192, label %done194
body192:
  %v198 = sub i64 %i195, %i49
  %v199 = mul i64 %v198, 10
  %v200 = getelementptr inbounds float, ptr %v7, i64 %v199
  %v201 = load float, ptr %v200, align 4
  %v202 = getelementptr inbounds float, ptr %v200, i64 1
  %v203 = load float, ptr %v202, align 4
  %v204 = fcmp ogt float %v203, 0x0000000000000000
  %v205 = mul i64 %i195, %v13
  %v206 = getelementptr inbounds float, ptr %v9, i64 %v205
  %v207 = getelementptr inbounds float, ptr %v200, i64 2
  %v208 = load <8 x float>, ptr %v207, align 4
  %v209 = insertelement <8 x float> poison, float %v203, i32 0
  %v210 = shufflevector <8 x float> %v209, <8 x float> poison, <8 x i32> zeroinitializer
  %v211 = fdiv <8 x float> %v208, %v210
  %v212 = insertelement <8 x i1> poison, i1 %v204, i32 0
  %v213 = shufflevector <8 x i1> %v212, <8 x i1> poison, <8 x i32> zeroinitializer
  %v214 = select <8 x i1> %v213, <8 x float> %v211, <8 x float> zeroinitializer
  %v215 = getelementptr inbounds float, ptr %v206, i64 0
  store <8 x float> %v214, ptr %v215, align 4
  %v216 = insertelement <8 x float> poison, float %v203, i32 0
  %v217 = shufflevector <8 x float> %v216, <8 x float> poison, <8 x i32> zeroinitializer
  %v218 = fcmp oge <8 x float> %v217, <float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000>
  %v219 = select <8 x i1> %v218, <8 x float> %v217, <8 x float> <float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000>
  %v220 = bitcast <8 x float> %v219 to <8 x i32>
  %v221 = sub <8 x i32> %v220, <i32 1060439283, i32 1060439283, i32 1060439283, i32 1060439283, i32 1060439283, i32 1060439283, i32 1060439283, i32 1060439283>
  %v222 = ashr <8 x i32> %v221, <i32 23, i32 23, i32 23, i32 23, i32 23, i32 23, i32 23, i32 23>
  %v223 = shl <8 x i32> %v222, <i32 23, i32 23, i32 23, i32 23, i32 23, i32 23, i32 23, i32 23>
  %v224 = sub <8 x i32> %v220, %v223
  %v225 = bitcast <8 x i32> %v224 to <8 x float>
  %v226 = fsub <8 x float> %v225, <float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000>
  %v227 = fadd <8 x float> %v225, <float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000>
  %v228 = fdiv <8 x float> %v226, %v227
  %v229 = fmul <8 x float> %v228, %v228
  %v230 = call <8 x float> @llvm.fma.v8f32(<8 x float> <float 0x3FCC71C720000000, float 0x3FCC71C720000000, float 0x3FCC71C720000000, float 0x3FCC71C720000000, float 0x3FCC71C720000000, float 0x3FCC71C720000000, float 0x3FCC71C720000000, float 0x3FCC71C720000000>, <8 x float> %v229, <8 x float> <float 0x3FD24924A0000000, float 0x3FD24924A0000000, float 0x3FD24924A0000000, float 0x3FD24924A0000000, float 0x3FD24924A0000000, float 0x3FD24924A0000000, float 0x3FD24924A0000000, float 0x3FD24924A0000000>)
  %v231 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v230, <8 x float> %v229, <8 x float> <float 0x3FD99999A0000000, float 0x3FD99999A0000000, float 0x3FD99999A0000000, float 0x3FD99999A0000000, float 0x3FD99999A0000000, float 0x3FD99999A0000000, float 0x3FD99999A0000000, float 0x3FD99999A0000000>)
  %v232 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v231, <8 x float> %v229, <8 x float> <float 0x3FE5555560000000, float 0x3FE5555560000000, float 0x3FE5555560000000, float 0x3FE5555560000000, float 0x3FE5555560000000, float 0x3FE5555560000000, float 0x3FE5555560000000, float 0x3FE5555560000000>)
  %v233 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v232, <8 x float> %v229, <8 x float> <float 0x4000000000000000, float 0x4000000000000000, float 0x4000000000000000, float 0x4000000000000000, float 0x4000000000000000, float 0x4000000000000000, float 0x4000000000000000, float 0x4000000000000000>)
  %v234 = fmul <8 x float> %v228, %v233
  %v235 = sitofp <8 x i32> %v222 to <8 x float>
  %v236 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v235, <8 x float> <float 0x3FE62E4300000000, float 0x3FE62E4300000000, float 0x3FE62E4300000000, float 0x3FE62E4300000000, float 0x3FE62E4300000000, float 0x3FE62E4300000000, float 0x3FE62E4300000000, float 0x3FE62E4300000000>, <8 x float> %v234)
  %v237 = fcmp oeq <8 x float> %v219, <float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000>
  %v238 = select <8 x i1> %v237, <8 x float> <float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000>, <8 x float> %v236
  %v239 = extractelement <8 x float> %v238, i32 0
  %v240 = fadd float %v201, %v239
  %v241 = select i1 %v204, float %v240, float 0xFFF0000000000000
  %v242 = mul i64 %i195, %v15
  %v243 = getelementptr inbounds float, ptr %v11, i64 %v242
  store float %v241, ptr %v243, align 4
  br label %latch193
latch193:
  %inext196 = add i64 %i195, 1
  br label %head191
done194:
  br label %latch47
latch47:
  %inext50 = add i64 %i49, 256
  br label %head45
done48:
  ret void
}
