; attnc host kernel attn_fwd_d8_causal_fp32_g1_t2x16
target triple = "x86_64-unknown-linux-gnu"

declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>)
declare <4 x float> @llvm.fma.v4f32(<4 x float>, <4 x float>, <4 x float>)
declare <8 x float> @llvm.maxnum.v8f32(<8 x float>, <8 x float>)
declare <8 x float> @llvm.minnum.v8f32(<8 x float>, <8 x float>)
declare <8 x float> @llvm.rint.v8f32(<8 x float>)
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

define internal void @tile4(ptr noalias %q, ptr noalias %state, ptr noalias %kt, ptr noalias %v, i64 %cols, i64 %diff, i1 %masked, float %scale) "target-cpu"="x86-64-v3" "target-features"="+avx2,+fma" nounwind {
entry:
  %slot1 = alloca [64 x float], align 32
  br label %pre2
pre2:
  br label %head3
head3:
  %i7 = phi i64 [ 0, %pre2 ], [ %inext8, %latch5 ]
  %carry9 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried10, %latch5 ]
  %carry11 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried12, %latch5 ]
  %carry13 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried14, %latch5 ]
  %carry15 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried16, %latch5 ]
  %carry17 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried18, %latch5 ]
  %carry19 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried20, %latch5 ]
  %carry21 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried22, %latch5 ]
  %carry23 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried24, %latch5 ]
  %v25 = icmp slt i64 %i7, 8
  br i1 %v25, label %body4, label %done6
body4:
  %v26 = mul i64 %i7, 16
  %v27 = getelementptr inbounds float, ptr %kt, i64 %v26
  %v28 = getelementptr inbounds float, ptr %q, i64 %i7
  %v29 = getelementptr inbounds float, ptr %v27, i64 0
  %v30 = load <8 x float>, ptr %v29, align 4
  %v31 = getelementptr inbounds float, ptr %v27, i64 8
  %v32 = load <8 x float>, ptr %v31, align 4
  %v33 = getelementptr inbounds float, ptr %v28, i64 0
  %v34 = load float, ptr %v33, align 4
  %v35 = insertelement <8 x float> poison, float %v34, i32 0
  %v36 = shufflevector <8 x float> %v35, <8 x float> poison, <8 x i32> zeroinitializer
  %v37 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v36, <8 x float> %v30, <8 x float> %carry9)
  %v38 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v36, <8 x float> %v32, <8 x float> %carry11)
  %v39 = getelementptr inbounds float, ptr %v28, i64 8
  %v40 = load float, ptr %v39, align 4
  %v41 = insertelement <8 x float> poison, float %v40, i32 0
  %v42 = shufflevector <8 x float> %v41, <8 x float> poison, <8 x i32> zeroinitializer
  %v43 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v42, <8 x float> %v30, <8 x float> %carry13)
  %v44 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v42, <8 x float> %v32, <8 x float> %carry15)
  %v45 = getelementptr inbounds float, ptr %v28, i64 16
  %v46 = load float, ptr %v45, align 4
  %v47 = insertelement <8 x float> poison, float %v46, i32 0
  %v48 = shufflevector <8 x float> %v47, <8 x float> poison, <8 x i32> zeroinitializer
  %v49 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v48, <8 x float> %v30, <8 x float> %carry17)
  %v50 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v48, <8 x float> %v32, <8 x float> %carry19)
  %v51 = getelementptr inbounds float, ptr %v28, i64 24
  %v52 = load float, ptr %v51, align 4
  %v53 = insertelement <8 x float> poison, float %v52, i32 0
  %v54 = shufflevector <8 x float> %v53, <8 x float> poison, <8 x i32> zeroinitializer
  %v55 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v54, <8 x float> %v30, <8 x float> %carry21)
  %v56 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v54, <8 x float> %v32, <8 x float> %carry23)
  %v57 = getelementptr inbounds float, ptr %v27, i64 16
  %v58 = load <8 x float>, ptr %v57, align 4
  %v59 = getelementptr inbounds float, ptr %v27, i64 24
  %v60 = load <8 x float>, ptr %v59, align 4
  %v61 = getelementptr inbounds float, ptr %v28, i64 1
  %v62 = load float, ptr %v61, align 4
  %v63 = insertelement <8 x float> poison, float %v62, i32 0
  %v64 = shufflevector <8 x float> %v63, <8 x float> poison, <8 x i32> zeroinitializer
  %v65 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v64, <8 x float> %v58, <8 x float> %v37)
  %v66 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v64, <8 x float> %v60, <8 x float> %v38)
  %v67 = getelementptr inbounds float, ptr %v28, i64 9
  %v68 = load float, ptr %v67, align 4
  %v69 = insertelement <8 x float> poison, float %v68, i32 0
  %v70 = shufflevector <8 x float> %v69, <8 x float> poison, <8 x i32> zeroinitializer
  %v71 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v70, <8 x float> %v58, <8 x float> %v43)
  %v72 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v70, <8 x float> %v60, <8 x float> %v44)
  %v73 = getelementptr inbounds float, ptr %v28, i64 17
  %v74 = load float, ptr %v73, align 4
  %v75 = insertelement <8 x float> poison, float %v74, i32 0
  %v76 = shufflevector <8 x float> %v75, <8 x float> poison, <8 x i32> zeroinitializer
  %v77 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v76, <8 x float> %v58, <8 x float> %v49)
  %v78 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v76, <8 x float> %v60, <8 x float> %v50)
  %v79 = getelementptr inbounds float, ptr %v28, i64 25
  %v80 = load float, ptr %v79, align 4
  %v81 = insertelement <8 x float> poison, float %v80, i32 0
  %v82 = shufflevector <8 x float> %v81, <8 x float> poison, <8 x i32> zeroinitializer
  %v83 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v82, <8 x float> %v58, <8 x float> %v55)
  %v84 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v82, <8 x float> %v60, <8 x float> %v56)
  %v85 = getelementptr inbounds float, ptr %v27, i64 32
  %v86 = load <8 x float>, ptr %v85, align 4
  %v87 = getelementptr inbounds float, ptr %v27, i64 40
  %v88 = load <8 x float>, ptr %v87, align 4
  %v89 = getelementptr inbounds float, ptr %v28, i64 2
  %v90 = load float, ptr %v89, align 4
  %v91 = insertelement <8 x float> poison, float %v90, i32 0
  %v92 = shufflevector <8 x float> %v91, <8 x float> poison, <8 x i32> zeroinitializer
  %v93 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v92, <8 x float> %v86, <8 x float> %v65)
  %v94 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v92, <8 x float> %v88, <8 x float> %v66)
  %v95 = getelementptr inbounds float, ptr %v28, i64 10
  %v96 = load float, ptr %v95, align 4
  %v97 = insertelement <8 x float> poison, float %v96, i32 0
  %v98 = shufflevector <8 x float> %v97, <8 x float> poison, <8 x i32> zeroinitializer
  %v99 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v98, <8 x float> %v86, <8 x float> %v71)
  %v100 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v98, <8 x float> %v88, <8 x float> %v72)
  %v101 = getelementptr inbounds float, ptr %v28, i64 18
  %v102 = load float, ptr %v101, align 4
  %v103 = insertelement <8 x float> poison, float %v102, i32 0
  %v104 = shufflevector <8 x float> %v103, <8 x float> poison, <8 x i32> zeroinitializer
  %v105 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v104, <8 x float> %v86, <8 x float> %v77)
  %v106 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v104, <8 x float> %v88, <8 x float> %v78)
  %v107 = getelementptr inbounds float, ptr %v28, i64 26
  %v108 = load float, ptr %v107, align 4
  %v109 = insertelement <8 x float> poison, float %v108, i32 0
  %v110 = shufflevector <8 x float> %v109, <8 x float> poison, <8 x i32> zeroinitializer
  %v111 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v110, <8 x float> %v86, <8 x float> %v83)
  %v112 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v110, <8 x float> %v88, <8 x float> %v84)
  %v113 = getelementptr inbounds float, ptr %v27, i64 48
  %v114 = load <8 x float>, ptr %v113, align 4
  %v115 = getelementptr inbounds float, ptr %v27, i64 56
  %v116 = load <8 x float>, ptr %v115, align 4
  %v117 = getelementptr inbounds float, ptr %v28, i64 3
  %v118 = load float, ptr %v117, align 4
  %v119 = insertelement <8 x float> poison, float %v118, i32 0
  %v120 = shufflevector <8 x float> %v119, <8 x float> poison, <8 x i32> zeroinitializer
  %v121 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v120, <8 x float> %v114, <8 x float> %v93)
  %v122 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v120, <8 x float> %v116, <8 x float> %v94)
  %v123 = getelementptr inbounds float, ptr %v28, i64 11
  %v124 = load float, ptr %v123, align 4
  %v125 = insertelement <8 x float> poison, float %v124, i32 0
  %v126 = shufflevector <8 x float> %v125, <8 x float> poison, <8 x i32> zeroinitializer
  %v127 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v126, <8 x float> %v114, <8 x float> %v99)
  %v128 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v126, <8 x float> %v116, <8 x float> %v100)
  %v129 = getelementptr inbounds float, ptr %v28, i64 19
  %v130 = load float, ptr %v129, align 4
  %v131 = insertelement <8 x float> poison, float %v130, i32 0
  %v132 = shufflevector <8 x float> %v131, <8 x float> poison, <8 x i32> zeroinitializer
  %v133 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v132, <8 x float> %v114, <8 x float> %v105)
  %v134 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v132, <8 x float> %v116, <8 x float> %v106)
  %v135 = getelementptr inbounds float, ptr %v28, i64 27
  %v136 = load float, ptr %v135, align 4
  %v137 = insertelement <8 x float> poison, float %v136, i32 0
  %v138 = shufflevector <8 x float> %v137, <8 x float> poison, <8 x i32> zeroinitializer
  %v139 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v138, <8 x float> %v114, <8 x float> %v111)
  %v140 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v138, <8 x float> %v116, <8 x float> %v112)
  %v141 = getelementptr inbounds float, ptr %v27, i64 64
  %v142 = load <8 x float>, ptr %v141, align 4
  %v143 = getelementptr inbounds float, ptr %v27, i64 72
  %v144 = load <8 x float>, ptr %v143, align 4
  %v145 = getelementptr inbounds float, ptr %v28, i64 4
  %v146 = load float, ptr %v145, align 4
  %v147 = insertelement <8 x float> poison, float %v146, i32 0
  %v148 = shufflevector <8 x float> %v147, <8 x float> poison, <8 x i32> zeroinitializer
  %v149 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v148, <8 x float> %v142, <8 x float> %v121)
  %v150 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v148, <8 x float> %v144, <8 x float> %v122)
  %v151 = getelementptr inbounds float, ptr %v28, i64 12
  %v152 = load float, ptr %v151, align 4
  %v153 = insertelement <8 x float> poison, float %v152, i32 0
  %v154 = shufflevector <8 x float> %v153, <8 x float> poison, <8 x i32> zeroinitializer
  %v155 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v154, <8 x float> %v142, <8 x float> %v127)
  %v156 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v154, <8 x float> %v144, <8 x float> %v128)
  %v157 = getelementptr inbounds float, ptr %v28, i64 20
  %v158 = load float, ptr %v157, align 4
  %v159 = insertelement <8 x float> poison, float %v158, i32 0
  %v160 = shufflevector <8 x float> %v159, <8 x float> poison, <8 x i32> zeroinitializer
  %v161 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v160, <8 x float> %v142, <8 x float> %v133)
  %v162 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v160, <8 x float> %v144, <8 x float> %v134)
  %v163 = getelementptr inbounds float, ptr %v28, i64 28
  %v164 = load float, ptr %v163, align 4
  %v165 = insertelement <8 x float> poison, float %v164, i32 0
  %v166 = shufflevector <8 x float> %v165, <8 x float> poison, <8 x i32> zeroinitializer
  %v167 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v166, <8 x float> %v142, <8 x float> %v139)
  %v168 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v166, <8 x float> %v144, <8 x float> %v140)
  %v169 = getelementptr inbounds float, ptr %v27, i64 80
  %v170 = load <8 x float>, ptr %v169, align 4
  %v171 = getelementptr inbounds float, ptr %v27, i64 88
  %v172 = load <8 x float>, ptr %v171, align 4
  %v173 = getelementptr inbounds float, ptr %v28, i64 5
  %v174 = load float, ptr %v173, align 4
  %v175 = insertelement <8 x float> poison, float %v174, i32 0
  %v176 = shufflevector <8 x float> %v175, <8 x float> poison, <8 x i32> zeroinitializer
  %v177 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v176, <8 x float> %v170, <8 x float> %v149)
  %v178 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v176, <8 x float> %v172, <8 x float> %v150)
  %v179 = getelementptr inbounds float, ptr %v28, i64 13
  %v180 = load float, ptr %v179, align 4
  %v181 = insertelement <8 x float> poison, float %v180, i32 0
  %v182 = shufflevector <8 x float> %v181, <8 x float> poison, <8 x i32> zeroinitializer
  %v183 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v182, <8 x float> %v170, <8 x float> %v155)
  %v184 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v182, <8 x float> %v172, <8 x float> %v156)
  %v185 = getelementptr inbounds float, ptr %v28, i64 21
  %v186 = load float, ptr %v185, align 4
  %v187 = insertelement <8 x float> poison, float %v186, i32 0
  %v188 = shufflevector <8 x float> %v187, <8 x float> poison, <8 x i32> zeroinitializer
  %v189 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v188, <8 x float> %v170, <8 x float> %v161)
  %v190 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v188, <8 x float> %v172, <8 x float> %v162)
  %v191 = getelementptr inbounds float, ptr %v28, i64 29
  %v192 = load float, ptr %v191, align 4
  %v193 = insertelement <8 x float> poison, float %v192, i32 0
  %v194 = shufflevector <8 x float> %v193, <8 x float> poison, <8 x i32> zeroinitializer
  %v195 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v194, <8 x float> %v170, <8 x float> %v167)
  %v196 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v194, <8 x float> %v172, <8 x float> %v168)
  %v197 = getelementptr inbounds float, ptr %v27, i64 96
  %v198 = load <8 x float>, ptr %v197, align 4
  %v199 = getelementptr inbounds float, ptr %v27, i64 104
  %v200 = load <8 x float>, ptr %v199, align 4
  %v201 = getelementptr inbounds float, ptr %v28, i64 6
  %v202 = load float, ptr %v201, align 4
  %v203 = insertelement <8 x float> poison, float %v202, i32 0
  %v204 = shufflevector <8 x float> %v203, <8 x float> poison, <8 x i32> zeroinitializer
  %v205 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v204, <8 x float> %v198, <8 x float> %v177)
  %v206 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v204, <8 x float> %v200, <8 x float> %v178)
  %v207 = getelementptr inbounds float, ptr %v28, i64 14
  %v208 = load float, ptr %v207, align 4
  %v209 = insertelement <8 x float> poison, float %v208, i32 0
  %v210 = shufflevector <8 x float> %v209, <8 x float> poison, <8 x i32> zeroinitializer
  %v211 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v210, <8 x float> %v198, <8 x float> %v183)
  %v212 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v210, <8 x float> %v200, <8 x float> %v184)
  %v213 = getelementptr inbounds float, ptr %v28, i64 22
  %v214 = load float, ptr %v213, align 4
  %v215 = insertelement <8 x float> poison, float %v214, i32 0
  %v216 = shufflevector <8 x float> %v215, <8 x float> poison, <8 x i32> zeroinitializer
  %v217 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v216, <8 x float> %v198, <8 x float> %v189)
  %v218 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v216, <8 x float> %v200, <8 x float> %v190)
  %v219 = getelementptr inbounds float, ptr %v28, i64 30
  %v220 = load float, ptr %v219, align 4
  %v221 = insertelement <8 x float> poison, float %v220, i32 0
  %v222 = shufflevector <8 x float> %v221, <8 x float> poison, <8 x i32> zeroinitializer
  %v223 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v222, <8 x float> %v198, <8 x float> %v195)
  %v224 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v222, <8 x float> %v200, <8 x float> %v196)
  %v225 = getelementptr inbounds float, ptr %v27, i64 112
  %v226 = load <8 x float>, ptr %v225, align 4
  %v227 = getelementptr inbounds float, ptr %v27, i64 120
  %v228 = load <8 x float>, ptr %v227, align 4
  %v229 = getelementptr inbounds float, ptr %v28, i64 7
  %v230 = load float, ptr %v229, align 4
  %v231 = insertelement <8 x float> poison, float %v230, i32 0
  %v232 = shufflevector <8 x float> %v231, <8 x float> poison, <8 x i32> zeroinitializer
  %v233 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v232, <8 x float> %v226, <8 x float> %v205)
  %v234 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v232, <8 x float> %v228, <8 x float> %v206)
  %v235 = getelementptr inbounds float, ptr %v28, i64 15
  %v236 = load float, ptr %v235, align 4
  %v237 = insertelement <8 x float> poison, float %v236, i32 0
  %v238 = shufflevector <8 x float> %v237, <8 x float> poison, <8 x i32> zeroinitializer
  %v239 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v238, <8 x float> %v226, <8 x float> %v211)
  %v240 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v238, <8 x float> %v228, <8 x float> %v212)
  %v241 = getelementptr inbounds float, ptr %v28, i64 23
  %v242 = load float, ptr %v241, align 4
  %v243 = insertelement <8 x float> poison, float %v242, i32 0
  %v244 = shufflevector <8 x float> %v243, <8 x float> poison, <8 x i32> zeroinitializer
  %v245 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v244, <8 x float> %v226, <8 x float> %v217)
  %v246 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v244, <8 x float> %v228, <8 x float> %v218)
  %v247 = getelementptr inbounds float, ptr %v28, i64 31
  %v248 = load float, ptr %v247, align 4
  %v249 = insertelement <8 x float> poison, float %v248, i32 0
  %v250 = shufflevector <8 x float> %v249, <8 x float> poison, <8 x i32> zeroinitializer
  %v251 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v250, <8 x float> %v226, <8 x float> %v223)
  %v252 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v250, <8 x float> %v228, <8 x float> %v224)
  br label %latch5
latch5:
  %carried10 = select i1 true, <8 x float> %v233, <8 x float> %v233
  %carried12 = select i1 true, <8 x float> %v234, <8 x float> %v234
  %carried14 = select i1 true, <8 x float> %v239, <8 x float> %v239
  %carried16 = select i1 true, <8 x float> %v240, <8 x float> %v240
  %carried18 = select i1 true, <8 x float> %v245, <8 x float> %v245
  %carried20 = select i1 true, <8 x float> %v246, <8 x float> %v246
  %carried22 = select i1 true, <8 x float> %v251, <8 x float> %v251
  %carried24 = select i1 true, <8 x float> %v252, <8 x float> %v252
  %inext8 = add i64 %i7, 8
  br label %head3
done6:
  br label %nomask255
nomask255:
  br i1 %masked, label %mask253, label %masked254
mask253:
  %v256 = trunc i64 %cols to i32
  %v257 = insertelement <8 x i32> poison, i32 %v256, i32 0
  %v258 = shufflevector <8 x i32> %v257, <8 x i32> poison, <8 x i32> zeroinitializer
  %v259 = trunc i64 %diff to i32
  %v260 = add i32 %v259, 0
  %v261 = insertelement <8 x i32> poison, i32 %v260, i32 0
  %v262 = shufflevector <8 x i32> %v261, <8 x i32> poison, <8 x i32> zeroinitializer
  %v263 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v258
  %v264 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v262
  %v265 = and <8 x i1> %v263, %v264
  %v266 = select <8 x i1> %v265, <8 x float> %carry9, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v267 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v258
  %v268 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v262
  %v269 = and <8 x i1> %v267, %v268
  %v270 = select <8 x i1> %v269, <8 x float> %carry11, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v271 = add i32 %v259, 1
  %v272 = insertelement <8 x i32> poison, i32 %v271, i32 0
  %v273 = shufflevector <8 x i32> %v272, <8 x i32> poison, <8 x i32> zeroinitializer
  %v274 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v258
  %v275 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v273
  %v276 = and <8 x i1> %v274, %v275
  %v277 = select <8 x i1> %v276, <8 x float> %carry13, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v278 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v258
  %v279 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v273
  %v280 = and <8 x i1> %v278, %v279
  %v281 = select <8 x i1> %v280, <8 x float> %carry15, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v282 = add i32 %v259, 2
  %v283 = insertelement <8 x i32> poison, i32 %v282, i32 0
  %v284 = shufflevector <8 x i32> %v283, <8 x i32> poison, <8 x i32> zeroinitializer
  %v285 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v258
  %v286 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v284
  %v287 = and <8 x i1> %v285, %v286
  %v288 = select <8 x i1> %v287, <8 x float> %carry17, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v289 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v258
  %v290 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v284
  %v291 = and <8 x i1> %v289, %v290
  %v292 = select <8 x i1> %v291, <8 x float> %carry19, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v293 = add i32 %v259, 3
  %v294 = insertelement <8 x i32> poison, i32 %v293, i32 0
  %v295 = shufflevector <8 x i32> %v294, <8 x i32> poison, <8 x i32> zeroinitializer
  %v296 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v258
  %v297 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v295
  %v298 = and <8 x i1> %v296, %v297
  %v299 = select <8 x i1> %v298, <8 x float> %carry21, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v300 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v258
  %v301 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v295
  %v302 = and <8 x i1> %v300, %v301
  %v303 = select <8 x i1> %v302, <8 x float> %carry23, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  br label %masked254
masked254:
  %v304 = phi <8 x float> [ %carry9, %nomask255 ], [ %v266, %mask253 ]
  %v305 = phi <8 x float> [ %carry11, %nomask255 ], [ %v270, %mask253 ]
  %v306 = phi <8 x float> [ %carry13, %nomask255 ], [ %v277, %mask253 ]
  %v307 = phi <8 x float> [ %carry15, %nomask255 ], [ %v281, %mask253 ]
  %v308 = phi <8 x float> [ %carry17, %nomask255 ], [ %v288, %mask253 ]
  %v309 = phi <8 x float> [ %carry19, %nomask255 ], [ %v292, %mask253 ]
  %v310 = phi <8 x float> [ %carry21, %nomask255 ], [ %v299, %mask253 ]
  %v311 = phi <8 x float> [ %carry23, %nomask255 ], [ %v303, %mask253 ]
  %v312 = fmul float %scale, 0x3FF7154760000000
  %v313 = insertelement <8 x float> poison, float %v312, i32 0
  %v314 = shufflevector <8 x float> %v313, <8 x float> poison, <8 x i32> zeroinitializer
  %v315 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v304, <8 x float> %v305)
  %v316 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v315)
  %v317 = fmul float %v316, %scale
  %v318 = getelementptr inbounds float, ptr %state, i64 0
  %v319 = load float, ptr %v318, align 4
  %v320 = call float @llvm.maxnum.f32(float %v319, float %v317)
  %v321 = fcmp oeq float %v320, 0xFFF0000000000000
  %v322 = select i1 %v321, float 0x0000000000000000, float %v320
  %v323 = fmul float %v322, 0xBFF7154760000000
  %v324 = insertelement <8 x float> poison, float %v323, i32 0
  %v325 = shufflevector <8 x float> %v324, <8 x float> poison, <8 x i32> zeroinitializer
  %v326 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v304, <8 x float> %v314, <8 x float> %v325)
  %v327 = call <8 x float> @exp2_8(<8 x float> %v326)
  %v328 = getelementptr inbounds float, ptr %slot1, i64 0
  store <8 x float> %v327, ptr %v328, align 4
  %v329 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v305, <8 x float> %v314, <8 x float> %v325)
  %v330 = call <8 x float> @exp2_8(<8 x float> %v329)
  %v331 = getelementptr inbounds float, ptr %slot1, i64 8
  store <8 x float> %v330, ptr %v331, align 4
  %v332 = fadd <8 x float> %v327, %v330
  %v333 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v332)
  %v334 = fsub float %v319, %v322
  %v335 = fmul float %v334, 0x3FF7154760000000
  %v336 = fcmp une float %v320, %v319
  %v337 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v306, <8 x float> %v307)
  %v338 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v337)
  %v339 = fmul float %v338, %scale
  %v340 = getelementptr inbounds float, ptr %state, i64 10
  %v341 = load float, ptr %v340, align 4
  %v342 = call float @llvm.maxnum.f32(float %v341, float %v339)
  %v343 = fcmp oeq float %v342, 0xFFF0000000000000
  %v344 = select i1 %v343, float 0x0000000000000000, float %v342
  %v345 = fmul float %v344, 0xBFF7154760000000
  %v346 = insertelement <8 x float> poison, float %v345, i32 0
  %v347 = shufflevector <8 x float> %v346, <8 x float> poison, <8 x i32> zeroinitializer
  %v348 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v306, <8 x float> %v314, <8 x float> %v347)
  %v349 = call <8 x float> @exp2_8(<8 x float> %v348)
  %v350 = getelementptr inbounds float, ptr %slot1, i64 16
  store <8 x float> %v349, ptr %v350, align 4
  %v351 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v307, <8 x float> %v314, <8 x float> %v347)
  %v352 = call <8 x float> @exp2_8(<8 x float> %v351)
  %v353 = getelementptr inbounds float, ptr %slot1, i64 24
  store <8 x float> %v352, ptr %v353, align 4
  %v354 = fadd <8 x float> %v349, %v352
  %v355 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v354)
  %v356 = fsub float %v341, %v344
  %v357 = fmul float %v356, 0x3FF7154760000000
  %v358 = fcmp une float %v342, %v341
  %v359 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v308, <8 x float> %v309)
  %v360 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v359)
  %v361 = fmul float %v360, %scale
  %v362 = getelementptr inbounds float, ptr %state, i64 20
  %v363 = load float, ptr %v362, align 4
  %v364 = call float @llvm.maxnum.f32(float %v363, float %v361)
  %v365 = fcmp oeq float %v364, 0xFFF0000000000000
  %v366 = select i1 %v365, float 0x0000000000000000, float %v364
  %v367 = fmul float %v366, 0xBFF7154760000000
  %v368 = insertelement <8 x float> poison, float %v367, i32 0
  %v369 = shufflevector <8 x float> %v368, <8 x float> poison, <8 x i32> zeroinitializer
  %v370 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v308, <8 x float> %v314, <8 x float> %v369)
  %v371 = call <8 x float> @exp2_8(<8 x float> %v370)
  %v372 = getelementptr inbounds float, ptr %slot1, i64 32
  store <8 x float> %v371, ptr %v372, align 4
  %v373 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v309, <8 x float> %v314, <8 x float> %v369)
  %v374 = call <8 x float> @exp2_8(<8 x float> %v373)
  %v375 = getelementptr inbounds float, ptr %slot1, i64 40
  store <8 x float> %v374, ptr %v375, align 4
  %v376 = fadd <8 x float> %v371, %v374
  %v377 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v376)
  %v378 = fsub float %v363, %v366
  %v379 = fmul float %v378, 0x3FF7154760000000
  %v380 = fcmp une float %v364, %v363
  %v381 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v310, <8 x float> %v311)
  %v382 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v381)
  %v383 = fmul float %v382, %scale
  %v384 = getelementptr inbounds float, ptr %state, i64 30
  %v385 = load float, ptr %v384, align 4
  %v386 = call float @llvm.maxnum.f32(float %v385, float %v383)
  %v387 = fcmp oeq float %v386, 0xFFF0000000000000
  %v388 = select i1 %v387, float 0x0000000000000000, float %v386
  %v389 = fmul float %v388, 0xBFF7154760000000
  %v390 = insertelement <8 x float> poison, float %v389, i32 0
  %v391 = shufflevector <8 x float> %v390, <8 x float> poison, <8 x i32> zeroinitializer
  %v392 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v310, <8 x float> %v314, <8 x float> %v391)
  %v393 = call <8 x float> @exp2_8(<8 x float> %v392)
  %v394 = getelementptr inbounds float, ptr %slot1, i64 48
  store <8 x float> %v393, ptr %v394, align 4
  %v395 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v311, <8 x float> %v314, <8 x float> %v391)
  %v396 = call <8 x float> @exp2_8(<8 x float> %v395)
  %v397 = getelementptr inbounds float, ptr %slot1, i64 56
  store <8 x float> %v396, ptr %v397, align 4
  %v398 = fadd <8 x float> %v393, %v396
  %v399 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v398)
  %v400 = fsub float %v385, %v388
  %v401 = fmul float %v400, 0x3FF7154760000000
  %v402 = fcmp une float %v386, %v385
  %v403 = insertelement <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, float %v335, i32 0
  %v404 = insertelement <8 x float> %v403, float %v357, i32 1
  %v405 = insertelement <8 x float> %v404, float %v379, i32 2
  %v406 = insertelement <8 x float> %v405, float %v401, i32 3
  %v407 = call <8 x float> @exp2_8(<8 x float> %v406)
  %v408 = extractelement <8 x float> %v407, i32 0
  %v409 = getelementptr inbounds float, ptr %state, i64 1
  %v410 = load float, ptr %v409, align 4
  %v411 = call float @llvm.fma.f32(float %v410, float %v408, float %v333)
  store float %v411, ptr %v409, align 4
  %v412 = getelementptr inbounds float, ptr %state, i64 0
  store float %v320, ptr %v412, align 4
  %v413 = insertelement <8 x float> poison, float %v408, i32 0
  %v414 = shufflevector <8 x float> %v413, <8 x float> poison, <8 x i32> zeroinitializer
  %v415 = or i1 false, %v336
  %v416 = extractelement <8 x float> %v407, i32 1
  %v417 = getelementptr inbounds float, ptr %state, i64 11
  %v418 = load float, ptr %v417, align 4
  %v419 = call float @llvm.fma.f32(float %v418, float %v416, float %v355)
  store float %v419, ptr %v417, align 4
  %v420 = getelementptr inbounds float, ptr %state, i64 10
  store float %v342, ptr %v420, align 4
  %v421 = insertelement <8 x float> poison, float %v416, i32 0
  %v422 = shufflevector <8 x float> %v421, <8 x float> poison, <8 x i32> zeroinitializer
  %v423 = or i1 %v415, %v358
  %v424 = extractelement <8 x float> %v407, i32 2
  %v425 = getelementptr inbounds float, ptr %state, i64 21
  %v426 = load float, ptr %v425, align 4
  %v427 = call float @llvm.fma.f32(float %v426, float %v424, float %v377)
  store float %v427, ptr %v425, align 4
  %v428 = getelementptr inbounds float, ptr %state, i64 20
  store float %v364, ptr %v428, align 4
  %v429 = insertelement <8 x float> poison, float %v424, i32 0
  %v430 = shufflevector <8 x float> %v429, <8 x float> poison, <8 x i32> zeroinitializer
  %v431 = or i1 %v423, %v380
  %v432 = extractelement <8 x float> %v407, i32 3
  %v433 = getelementptr inbounds float, ptr %state, i64 31
  %v434 = load float, ptr %v433, align 4
  %v435 = call float @llvm.fma.f32(float %v434, float %v432, float %v399)
  store float %v435, ptr %v433, align 4
  %v436 = getelementptr inbounds float, ptr %state, i64 30
  store float %v386, ptr %v436, align 4
  %v437 = insertelement <8 x float> poison, float %v432, i32 0
  %v438 = shufflevector <8 x float> %v437, <8 x float> poison, <8 x i32> zeroinitializer
  %v439 = or i1 %v431, %v402
  %v440 = sdiv i64 %cols, 4
  %v441 = mul i64 %v440, 4
  br i1 %v439, label %pv_scaled442, label %pv_plain443
pv_scaled442:
  %v445 = getelementptr inbounds float, ptr %state, i64 2
  %v446 = load <8 x float>, ptr %v445, align 4
  %v447 = fmul <8 x float> %v446, %v414
  %v448 = getelementptr inbounds float, ptr %state, i64 12
  %v449 = load <8 x float>, ptr %v448, align 4
  %v450 = fmul <8 x float> %v449, %v422
  %v451 = getelementptr inbounds float, ptr %state, i64 22
  %v452 = load <8 x float>, ptr %v451, align 4
  %v453 = fmul <8 x float> %v452, %v430
  %v454 = getelementptr inbounds float, ptr %state, i64 32
  %v455 = load <8 x float>, ptr %v454, align 4
  %v456 = fmul <8 x float> %v455, %v438
  br label %pre457
pre457:
  br label %head458
head458:
  %i462 = phi i64 [ 0, %pre457 ], [ %inext463, %latch460 ]
  %carry464 = phi <8 x float> [ %v447, %pre457 ], [ %carried465, %latch460 ]
  %carry466 = phi <8 x float> [ %v450, %pre457 ], [ %carried467, %latch460 ]
  %carry468 = phi <8 x float> [ %v453, %pre457 ], [ %carried469, %latch460 ]
  %carry470 = phi <8 x float> [ %v456, %pre457 ], [ %carried471, %latch460 ]
  %v472 = icmp slt i64 %i462, %v441
  br i1 %v472, label %body459, label %done461
body459:
  %v473 = add i64 %i462, 0
  %v474 = mul i64 %v473, 8
  %v475 = add i64 %v474, 0
  %v476 = getelementptr inbounds float, ptr %v, i64 %v475
  %v477 = load <8 x float>, ptr %v476, align 4
  %v478 = add i64 %v473, 0
  %v479 = getelementptr inbounds float, ptr %slot1, i64 %v478
  %v480 = load float, ptr %v479, align 4
  %v481 = insertelement <8 x float> poison, float %v480, i32 0
  %v482 = shufflevector <8 x float> %v481, <8 x float> poison, <8 x i32> zeroinitializer
  %v483 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v482, <8 x float> %v477, <8 x float> %carry464)
  %v484 = add i64 %v473, 16
  %v485 = getelementptr inbounds float, ptr %slot1, i64 %v484
  %v486 = load float, ptr %v485, align 4
  %v487 = insertelement <8 x float> poison, float %v486, i32 0
  %v488 = shufflevector <8 x float> %v487, <8 x float> poison, <8 x i32> zeroinitializer
  %v489 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v488, <8 x float> %v477, <8 x float> %carry466)
  %v490 = add i64 %v473, 32
  %v491 = getelementptr inbounds float, ptr %slot1, i64 %v490
  %v492 = load float, ptr %v491, align 4
  %v493 = insertelement <8 x float> poison, float %v492, i32 0
  %v494 = shufflevector <8 x float> %v493, <8 x float> poison, <8 x i32> zeroinitializer
  %v495 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v494, <8 x float> %v477, <8 x float> %carry468)
  %v496 = add i64 %v473, 48
  %v497 = getelementptr inbounds float, ptr %slot1, i64 %v496
  %v498 = load float, ptr %v497, align 4
  %v499 = insertelement <8 x float> poison, float %v498, i32 0
  %v500 = shufflevector <8 x float> %v499, <8 x float> poison, <8 x i32> zeroinitializer
  %v501 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v500, <8 x float> %v477, <8 x float> %carry470)
  %v502 = add i64 %i462, 1
  %v503 = mul i64 %v502, 8
  %v504 = add i64 %v503, 0
  %v505 = getelementptr inbounds float, ptr %v, i64 %v504
  %v506 = load <8 x float>, ptr %v505, align 4
  %v507 = add i64 %v502, 0
  %v508 = getelementptr inbounds float, ptr %slot1, i64 %v507
  %v509 = load float, ptr %v508, align 4
  %v510 = insertelement <8 x float> poison, float %v509, i32 0
  %v511 = shufflevector <8 x float> %v510, <8 x float> poison, <8 x i32> zeroinitializer
  %v512 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v511, <8 x float> %v506, <8 x float> %v483)
  %v513 = add i64 %v502, 16
  %v514 = getelementptr inbounds float, ptr %slot1, i64 %v513
  %v515 = load float, ptr %v514, align 4
  %v516 = insertelement <8 x float> poison, float %v515, i32 0
  %v517 = shufflevector <8 x float> %v516, <8 x float> poison, <8 x i32> zeroinitializer
  %v518 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v517, <8 x float> %v506, <8 x float> %v489)
  %v519 = add i64 %v502, 32
  %v520 = getelementptr inbounds float, ptr %slot1, i64 %v519
  %v521 = load float, ptr %v520, align 4
  %v522 = insertelement <8 x float> poison, float %v521, i32 0
  %v523 = shufflevector <8 x float> %v522, <8 x float> poison, <8 x i32> zeroinitializer
  %v524 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v523, <8 x float> %v506, <8 x float> %v495)
  %v525 = add i64 %v502, 48
  %v526 = getelementptr inbounds float, ptr %slot1, i64 %v525
  %v527 = load float, ptr %v526, align 4
  %v528 = insertelement <8 x float> poison, float %v527, i32 0
  %v529 = shufflevector <8 x float> %v528, <8 x float> poison, <8 x i32> zeroinitializer
  %v530 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v529, <8 x float> %v506, <8 x float> %v501)
  %v531 = add i64 %i462, 2
  %v532 = mul i64 %v531, 8
  %v533 = add i64 %v532, 0
  %v534 = getelementptr inbounds float, ptr %v, i64 %v533
  %v535 = load <8 x float>, ptr %v534, align 4
  %v536 = add i64 %v531, 0
  %v537 = getelementptr inbounds float, ptr %slot1, i64 %v536
  %v538 = load float, ptr %v537, align 4
  %v539 = insertelement <8 x float> poison, float %v538, i32 0
  %v540 = shufflevector <8 x float> %v539, <8 x float> poison, <8 x i32> zeroinitializer
  %v541 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v540, <8 x float> %v535, <8 x float> %v512)
  %v542 = add i64 %v531, 16
  %v543 = getelementptr inbounds float, ptr %slot1, i64 %v542
  %v544 = load float, ptr %v543, align 4
  %v545 = insertelement <8 x float> poison, float %v544, i32 0
  %v546 = shufflevector <8 x float> %v545, <8 x float> poison, <8 x i32> zeroinitializer
  %v547 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v546, <8 x float> %v535, <8 x float> %v518)
  %v548 = add i64 %v531, 32
  %v549 = getelementptr inbounds float, ptr %slot1, i64 %v548
  %v550 = load float, ptr %v549, align 4
  %v551 = insertelement <8 x float> poison, float %v550, i32 0
  %v552 = shufflevector <8 x float> %v551, <8 x float> poison, <8 x i32> zeroinitializer
  %v553 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v552, <8 x float> %v535, <8 x float> %v524)
  %v554 = add i64 %v531, 48
  %v555 = getelementptr inbounds float, ptr %slot1, i64 %v554
  %v556 = load float, ptr %v555, align 4
  %v557 = insertelement <8 x float> poison, float %v556, i32 0
  %v558 = shufflevector <8 x float> %v557, <8 x float> poison, <8 x i32> zeroinitializer
  %v559 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v558, <8 x float> %v535, <8 x float> %v530)
  %v560 = add i64 %i462, 3
  %v561 = mul i64 %v560, 8
  %v562 = add i64 %v561, 0
  %v563 = getelementptr inbounds float, ptr %v, i64 %v562
  %v564 = load <8 x float>, ptr %v563, align 4
  %v565 = add i64 %v560, 0
  %v566 = getelementptr inbounds float, ptr %slot1, i64 %v565
  %v567 = load float, ptr %v566, align 4
  %v568 = insertelement <8 x float> poison, float %v567, i32 0
  %v569 = shufflevector <8 x float> %v568, <8 x float> poison, <8 x i32> zeroinitializer
  %v570 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v569, <8 x float> %v564, <8 x float> %v541)
  %v571 = add i64 %v560, 16
  %v572 = getelementptr inbounds float, ptr %slot1, i64 %v571
  %v573 = load float, ptr %v572, align 4
  %v574 = insertelement <8 x float> poison, float %v573, i32 0
  %v575 = shufflevector <8 x float> %v574, <8 x float> poison, <8 x i32> zeroinitializer
  %v576 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v575, <8 x float> %v564, <8 x float> %v547)
  %v577 = add i64 %v560, 32
  %v578 = getelementptr inbounds float, ptr %slot1, i64 %v577
  %v579 = load float, ptr %v578, align 4
  %v580 = insertelement <8 x float> poison, float %v579, i32 0
  %v581 = shufflevector <8 x float> %v580, <8 x float> poison, <8 x i32> zeroinitializer
  %v582 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v581, <8 x float> %v564, <8 x float> %v553)
  %v583 = add i64 %v560, 48
  %v584 = getelementptr inbounds float, ptr %slot1, i64 %v583
  %v585 = load float, ptr %v584, align 4
  %v586 = insertelement <8 x float> poison, float %v585, i32 0
  %v587 = shufflevector <8 x float> %v586, <8 x float> poison, <8 x i32> zeroinitializer
  %v588 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v587, <8 x float> %v564, <8 x float> %v559)
  br label %latch460
latch460:
  %carried465 = select i1 true, <8 x float> %v570, <8 x float> %v570
  %carried467 = select i1 true, <8 x float> %v576, <8 x float> %v576
  %carried469 = select i1 true, <8 x float> %v582, <8 x float> %v582
  %carried471 = select i1 true, <8 x float> %v588, <8 x float> %v588
  %inext463 = add i64 %i462, 4
  br label %head458
done461:
  br label %pre589
pre589:
  br label %head590
head590:
  %i594 = phi i64 [ %v441, %pre589 ], [ %inext595, %latch592 ]
  %carry596 = phi <8 x float> [ %carry464, %pre589 ], [ %carried597, %latch592 ]
  %carry598 = phi <8 x float> [ %carry466, %pre589 ], [ %carried599, %latch592 ]
  %carry600 = phi <8 x float> [ %carry468, %pre589 ], [ %carried601, %latch592 ]
  %carry602 = phi <8 x float> [ %carry470, %pre589 ], [ %carried603, %latch592 ]
  %v604 = icmp slt i64 %i594, %cols
  br i1 %v604, label %body591, label %done593
body591:
  %v605 = mul i64 %i594, 8
  %v606 = add i64 %v605, 0
  %v607 = getelementptr inbounds float, ptr %v, i64 %v606
  %v608 = load <8 x float>, ptr %v607, align 4
  %v609 = add i64 %i594, 0
  %v610 = getelementptr inbounds float, ptr %slot1, i64 %v609
  %v611 = load float, ptr %v610, align 4
  %v612 = insertelement <8 x float> poison, float %v611, i32 0
  %v613 = shufflevector <8 x float> %v612, <8 x float> poison, <8 x i32> zeroinitializer
  %v614 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v613, <8 x float> %v608, <8 x float> %carry596)
  %v615 = add i64 %i594, 16
  %v616 = getelementptr inbounds float, ptr %slot1, i64 %v615
  %v617 = load float, ptr %v616, align 4
  %v618 = insertelement <8 x float> poison, float %v617, i32 0
  %v619 = shufflevector <8 x float> %v618, <8 x float> poison, <8 x i32> zeroinitializer
  %v620 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v619, <8 x float> %v608, <8 x float> %carry598)
  %v621 = add i64 %i594, 32
  %v622 = getelementptr inbounds float, ptr %slot1, i64 %v621
  %v623 = load float, ptr %v622, align 4
  %v624 = insertelement <8 x float> poison, float %v623, i32 0
  %v625 = shufflevector <8 x float> %v624, <8 x float> poison, <8 x i32> zeroinitializer
  %v626 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v625, <8 x float> %v608, <8 x float> %carry600)
  %v627 = add i64 %i594, 48
  %v628 = getelementptr inbounds float, ptr %slot1, i64 %v627
  %v629 = load float, ptr %v628, align 4
  %v630 = insertelement <8 x float> poison, float %v629, i32 0
  %v631 = shufflevector <8 x float> %v630, <8 x float> poison, <8 x i32> zeroinitializer
  %v632 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v631, <8 x float> %v608, <8 x float> %carry602)
  br label %latch592
latch592:
  %carried597 = select i1 true, <8 x float> %v614, <8 x float> %v614
  %carried599 = select i1 true, <8 x float> %v620, <8 x float> %v620
  %carried601 = select i1 true, <8 x float> %v626, <8 x float> %v626
  %carried603 = select i1 true, <8 x float> %v632, <8 x float> %v632
  %inext595 = add i64 %i594, 1
  br label %head590
done593:
  %v633 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry596, ptr %v633, align 4
  %v634 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry598, ptr %v634, align 4
  %v635 = getelementptr inbounds float, ptr %state, i64 22
  store <8 x float> %carry600, ptr %v635, align 4
  %v636 = getelementptr inbounds float, ptr %state, i64 32
  store <8 x float> %carry602, ptr %v636, align 4
  br label %pv_done444
pv_plain443:
  %v637 = getelementptr inbounds float, ptr %state, i64 2
  %v638 = load <8 x float>, ptr %v637, align 4
  %v639 = getelementptr inbounds float, ptr %state, i64 12
  %v640 = load <8 x float>, ptr %v639, align 4
  %v641 = getelementptr inbounds float, ptr %state, i64 22
  %v642 = load <8 x float>, ptr %v641, align 4
  %v643 = getelementptr inbounds float, ptr %state, i64 32
  %v644 = load <8 x float>, ptr %v643, align 4
  br label %pre645
pre645:
  br label %head646
head646:
  %i650 = phi i64 [ 0, %pre645 ], [ %inext651, %latch648 ]
  %carry652 = phi <8 x float> [ %v638, %pre645 ], [ %carried653, %latch648 ]
  %carry654 = phi <8 x float> [ %v640, %pre645 ], [ %carried655, %latch648 ]
  %carry656 = phi <8 x float> [ %v642, %pre645 ], [ %carried657, %latch648 ]
  %carry658 = phi <8 x float> [ %v644, %pre645 ], [ %carried659, %latch648 ]
  %v660 = icmp slt i64 %i650, %v441
  br i1 %v660, label %body647, label %done649
body647:
  %v661 = add i64 %i650, 0
  %v662 = mul i64 %v661, 8
  %v663 = add i64 %v662, 0
  %v664 = getelementptr inbounds float, ptr %v, i64 %v663
  %v665 = load <8 x float>, ptr %v664, align 4
  %v666 = add i64 %v661, 0
  %v667 = getelementptr inbounds float, ptr %slot1, i64 %v666
  %v668 = load float, ptr %v667, align 4
  %v669 = insertelement <8 x float> poison, float %v668, i32 0
  %v670 = shufflevector <8 x float> %v669, <8 x float> poison, <8 x i32> zeroinitializer
  %v671 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v670, <8 x float> %v665, <8 x float> %carry652)
  %v672 = add i64 %v661, 16
  %v673 = getelementptr inbounds float, ptr %slot1, i64 %v672
  %v674 = load float, ptr %v673, align 4
  %v675 = insertelement <8 x float> poison, float %v674, i32 0
  %v676 = shufflevector <8 x float> %v675, <8 x float> poison, <8 x i32> zeroinitializer
  %v677 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v676, <8 x float> %v665, <8 x float> %carry654)
  %v678 = add i64 %v661, 32
  %v679 = getelementptr inbounds float, ptr %slot1, i64 %v678
  %v680 = load float, ptr %v679, align 4
  %v681 = insertelement <8 x float> poison, float %v680, i32 0
  %v682 = shufflevector <8 x float> %v681, <8 x float> poison, <8 x i32> zeroinitializer
  %v683 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v682, <8 x float> %v665, <8 x float> %carry656)
  %v684 = add i64 %v661, 48
  %v685 = getelementptr inbounds float, ptr %slot1, i64 %v684
  %v686 = load float, ptr %v685, align 4
  %v687 = insertelement <8 x float> poison, float %v686, i32 0
  %v688 = shufflevector <8 x float> %v687, <8 x float> poison, <8 x i32> zeroinitializer
  %v689 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v688, <8 x float> %v665, <8 x float> %carry658)
  %v690 = add i64 %i650, 1
  %v691 = mul i64 %v690, 8
  %v692 = add i64 %v691, 0
  %v693 = getelementptr inbounds float, ptr %v, i64 %v692
  %v694 = load <8 x float>, ptr %v693, align 4
  %v695 = add i64 %v690, 0
  %v696 = getelementptr inbounds float, ptr %slot1, i64 %v695
  %v697 = load float, ptr %v696, align 4
  %v698 = insertelement <8 x float> poison, float %v697, i32 0
  %v699 = shufflevector <8 x float> %v698, <8 x float> poison, <8 x i32> zeroinitializer
  %v700 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v699, <8 x float> %v694, <8 x float> %v671)
  %v701 = add i64 %v690, 16
  %v702 = getelementptr inbounds float, ptr %slot1, i64 %v701
  %v703 = load float, ptr %v702, align 4
  %v704 = insertelement <8 x float> poison, float %v703, i32 0
  %v705 = shufflevector <8 x float> %v704, <8 x float> poison, <8 x i32> zeroinitializer
  %v706 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v705, <8 x float> %v694, <8 x float> %v677)
  %v707 = add i64 %v690, 32
  %v708 = getelementptr inbounds float, ptr %slot1, i64 %v707
  %v709 = load float, ptr %v708, align 4
  %v710 = insertelement <8 x float> poison, float %v709, i32 0
  %v711 = shufflevector <8 x float> %v710, <8 x float> poison, <8 x i32> zeroinitializer
  %v712 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v711, <8 x float> %v694, <8 x float> %v683)
  %v713 = add i64 %v690, 48
  %v714 = getelementptr inbounds float, ptr %slot1, i64 %v713
  %v715 = load float, ptr %v714, align 4
  %v716 = insertelement <8 x float> poison, float %v715, i32 0
  %v717 = shufflevector <8 x float> %v716, <8 x float> poison, <8 x i32> zeroinitializer
  %v718 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v717, <8 x float> %v694, <8 x float> %v689)
  %v719 = add i64 %i650, 2
  %v720 = mul i64 %v719, 8
  %v721 = add i64 %v720, 0
  %v722 = getelementptr inbounds float, ptr %v, i64 %v721
  %v723 = load <8 x float>, ptr %v722, align 4
  %v724 = add i64 %v719, 0
  %v725 = getelementptr inbounds float, ptr %slot1, i64 %v724
  %v726 = load float, ptr %v725, align 4
  %v727 = insertelement <8 x float> poison, float %v726, i32 0
  %v728 = shufflevector <8 x float> %v727, <8 x float> poison, <8 x i32> zeroinitializer
  %v729 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v728, <8 x float> %v723, <8 x float> %v700)
  %v730 = add i64 %v719, 16
  %v731 = getelementptr inbounds float, ptr %slot1, i64 %v730
  %v732 = load float, ptr %v731, align 4
  %v733 = insertelement <8 x float> poison, float %v732, i32 0
  %v734 = shufflevector <8 x float> %v733, <8 x float> poison, <8 x i32> zeroinitializer
  %v735 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v734, <8 x float> %v723, <8 x float> %v706)
  %v736 = add i64 %v719, 32
  %v737 = getelementptr inbounds float, ptr %slot1, i64 %v736
  %v738 = load float, ptr %v737, align 4
  %v739 = insertelement <8 x float> poison, float %v738, i32 0
  %v740 = shufflevector <8 x float> %v739, <8 x float> poison, <8 x i32> zeroinitializer
  %v741 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v740, <8 x float> %v723, <8 x float> %v712)
  %v742 = add i64 %v719, 48
  %v743 = getelementptr inbounds float, ptr %slot1, i64 %v742
  %v744 = load float, ptr %v743, align 4
  %v745 = insertelement <8 x float> poison, float %v744, i32 0
  %v746 = shufflevector <8 x float> %v745, <8 x float> poison, <8 x i32> zeroinitializer
  %v747 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v746, <8 x float> %v723, <8 x float> %v718)
  %v748 = add i64 %i650, 3
  %v749 = mul i64 %v748, 8
  %v750 = add i64 %v749, 0
  %v751 = getelementptr inbounds float, ptr %v, i64 %v750
  %v752 = load <8 x float>, ptr %v751, align 4
  %v753 = add i64 %v748, 0
  %v754 = getelementptr inbounds float, ptr %slot1, i64 %v753
  %v755 = load float, ptr %v754, align 4
  %v756 = insertelement <8 x float> poison, float %v755, i32 0
  %v757 = shufflevector <8 x float> %v756, <8 x float> poison, <8 x i32> zeroinitializer
  %v758 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v757, <8 x float> %v752, <8 x float> %v729)
  %v759 = add i64 %v748, 16
  %v760 = getelementptr inbounds float, ptr %slot1, i64 %v759
  %v761 = load float, ptr %v760, align 4
  %v762 = insertelement <8 x float> poison, float %v761, i32 0
  %v763 = shufflevector <8 x float> %v762, <8 x float> poison, <8 x i32> zeroinitializer
  %v764 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v763, <8 x float> %v752, <8 x float> %v735)
  %v765 = add i64 %v748, 32
  %v766 = getelementptr inbounds float, ptr %slot1, i64 %v765
  %v767 = load float, ptr %v766, align 4
  %v768 = insertelement <8 x float> poison, float %v767, i32 0
  %v769 = shufflevector <8 x float> %v768, <8 x float> poison, <8 x i32> zeroinitializer
  %v770 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v769, <8 x float> %v752, <8 x float> %v741)
  %v771 = add i64 %v748, 48
  %v772 = getelementptr inbounds float, ptr %slot1, i64 %v771
  %v773 = load float, ptr %v772, align 4
  %v774 = insertelement <8 x float> poison, float %v773, i32 0
  %v775 = shufflevector <8 x float> %v774, <8 x float> poison, <8 x i32> zeroinitializer
  %v776 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v775, <8 x float> %v752, <8 x float> %v747)
  br label %latch648
latch648:
  %carried653 = select i1 true, <8 x float> %v758, <8 x float> %v758
  %carried655 = select i1 true, <8 x float> %v764, <8 x float> %v764
  %carried657 = select i1 true, <8 x float> %v770, <8 x float> %v770
  %carried659 = select i1 true, <8 x float> %v776, <8 x float> %v776
  %inext651 = add i64 %i650, 4
  br label %head646
done649:
  br label %pre777
pre777:
  br label %head778
head778:
  %i782 = phi i64 [ %v441, %pre777 ], [ %inext783, %latch780 ]
  %carry784 = phi <8 x float> [ %carry652, %pre777 ], [ %carried785, %latch780 ]
  %carry786 = phi <8 x float> [ %carry654, %pre777 ], [ %carried787, %latch780 ]
  %carry788 = phi <8 x float> [ %carry656, %pre777 ], [ %carried789, %latch780 ]
  %carry790 = phi <8 x float> [ %carry658, %pre777 ], [ %carried791, %latch780 ]
  %v792 = icmp slt i64 %i782, %cols
  br i1 %v792, label %body779, label %done781
body779:
  %v793 = mul i64 %i782, 8
  %v794 = add i64 %v793, 0
  %v795 = getelementptr inbounds float, ptr %v, i64 %v794
  %v796 = load <8 x float>, ptr %v795, align 4
  %v797 = add i64 %i782, 0
  %v798 = getelementptr inbounds float, ptr %slot1, i64 %v797
  %v799 = load float, ptr %v798, align 4
  %v800 = insertelement <8 x float> poison, float %v799, i32 0
  %v801 = shufflevector <8 x float> %v800, <8 x float> poison, <8 x i32> zeroinitializer
  %v802 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v801, <8 x float> %v796, <8 x float> %carry784)
  %v803 = add i64 %i782, 16
  %v804 = getelementptr inbounds float, ptr %slot1, i64 %v803
  %v805 = load float, ptr %v804, align 4
  %v806 = insertelement <8 x float> poison, float %v805, i32 0
  %v807 = shufflevector <8 x float> %v806, <8 x float> poison, <8 x i32> zeroinitializer
  %v808 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v807, <8 x float> %v796, <8 x float> %carry786)
  %v809 = add i64 %i782, 32
  %v810 = getelementptr inbounds float, ptr %slot1, i64 %v809
  %v811 = load float, ptr %v810, align 4
  %v812 = insertelement <8 x float> poison, float %v811, i32 0
  %v813 = shufflevector <8 x float> %v812, <8 x float> poison, <8 x i32> zeroinitializer
  %v814 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v813, <8 x float> %v796, <8 x float> %carry788)
  %v815 = add i64 %i782, 48
  %v816 = getelementptr inbounds float, ptr %slot1, i64 %v815
  %v817 = load float, ptr %v816, align 4
  %v818 = insertelement <8 x float> poison, float %v817, i32 0
  %v819 = shufflevector <8 x float> %v818, <8 x float> poison, <8 x i32> zeroinitializer
  %v820 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v819, <8 x float> %v796, <8 x float> %carry790)
  br label %latch780
latch780:
  %carried785 = select i1 true, <8 x float> %v802, <8 x float> %v802
  %carried787 = select i1 true, <8 x float> %v808, <8 x float> %v808
  %carried789 = select i1 true, <8 x float> %v814, <8 x float> %v814
  %carried791 = select i1 true, <8 x float> %v820, <8 x float> %v820
  %inext783 = add i64 %i782, 1
  br label %head778
done781:
  %v821 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry784, ptr %v821, align 4
  %v822 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry786, ptr %v822, align 4
  %v823 = getelementptr inbounds float, ptr %state, i64 22
  store <8 x float> %carry788, ptr %v823, align 4
  %v824 = getelementptr inbounds float, ptr %state, i64 32
  store <8 x float> %carry790, ptr %v824, align 4
  br label %pv_done444
pv_done444:
  ret void
}

define internal void @tile2(ptr noalias %q, ptr noalias %state, ptr noalias %kt, ptr noalias %v, i64 %cols, i64 %diff, i1 %masked, float %scale) "target-cpu"="x86-64-v3" "target-features"="+avx2,+fma" nounwind {
entry:
  %slot1 = alloca [32 x float], align 32
  br label %pre2
pre2:
  br label %head3
head3:
  %i7 = phi i64 [ 0, %pre2 ], [ %inext8, %latch5 ]
  %carry9 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried10, %latch5 ]
  %carry11 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried12, %latch5 ]
  %carry13 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried14, %latch5 ]
  %carry15 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried16, %latch5 ]
  %v17 = icmp slt i64 %i7, 8
  br i1 %v17, label %body4, label %done6
body4:
  %v18 = mul i64 %i7, 16
  %v19 = getelementptr inbounds float, ptr %kt, i64 %v18
  %v20 = getelementptr inbounds float, ptr %q, i64 %i7
  %v21 = getelementptr inbounds float, ptr %v19, i64 0
  %v22 = load <8 x float>, ptr %v21, align 4
  %v23 = getelementptr inbounds float, ptr %v19, i64 8
  %v24 = load <8 x float>, ptr %v23, align 4
  %v25 = getelementptr inbounds float, ptr %v20, i64 0
  %v26 = load float, ptr %v25, align 4
  %v27 = insertelement <8 x float> poison, float %v26, i32 0
  %v28 = shufflevector <8 x float> %v27, <8 x float> poison, <8 x i32> zeroinitializer
  %v29 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v28, <8 x float> %v22, <8 x float> %carry9)
  %v30 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v28, <8 x float> %v24, <8 x float> %carry11)
  %v31 = getelementptr inbounds float, ptr %v20, i64 8
  %v32 = load float, ptr %v31, align 4
  %v33 = insertelement <8 x float> poison, float %v32, i32 0
  %v34 = shufflevector <8 x float> %v33, <8 x float> poison, <8 x i32> zeroinitializer
  %v35 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v34, <8 x float> %v22, <8 x float> %carry13)
  %v36 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v34, <8 x float> %v24, <8 x float> %carry15)
  %v37 = getelementptr inbounds float, ptr %v19, i64 16
  %v38 = load <8 x float>, ptr %v37, align 4
  %v39 = getelementptr inbounds float, ptr %v19, i64 24
  %v40 = load <8 x float>, ptr %v39, align 4
  %v41 = getelementptr inbounds float, ptr %v20, i64 1
  %v42 = load float, ptr %v41, align 4
  %v43 = insertelement <8 x float> poison, float %v42, i32 0
  %v44 = shufflevector <8 x float> %v43, <8 x float> poison, <8 x i32> zeroinitializer
  %v45 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v44, <8 x float> %v38, <8 x float> %v29)
  %v46 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v44, <8 x float> %v40, <8 x float> %v30)
  %v47 = getelementptr inbounds float, ptr %v20, i64 9
  %v48 = load float, ptr %v47, align 4
  %v49 = insertelement <8 x float> poison, float %v48, i32 0
  %v50 = shufflevector <8 x float> %v49, <8 x float> poison, <8 x i32> zeroinitializer
  %v51 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v50, <8 x float> %v38, <8 x float> %v35)
  %v52 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v50, <8 x float> %v40, <8 x float> %v36)
  %v53 = getelementptr inbounds float, ptr %v19, i64 32
  %v54 = load <8 x float>, ptr %v53, align 4
  %v55 = getelementptr inbounds float, ptr %v19, i64 40
  %v56 = load <8 x float>, ptr %v55, align 4
  %v57 = getelementptr inbounds float, ptr %v20, i64 2
  %v58 = load float, ptr %v57, align 4
  %v59 = insertelement <8 x float> poison, float %v58, i32 0
  %v60 = shufflevector <8 x float> %v59, <8 x float> poison, <8 x i32> zeroinitializer
  %v61 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v60, <8 x float> %v54, <8 x float> %v45)
  %v62 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v60, <8 x float> %v56, <8 x float> %v46)
  %v63 = getelementptr inbounds float, ptr %v20, i64 10
  %v64 = load float, ptr %v63, align 4
  %v65 = insertelement <8 x float> poison, float %v64, i32 0
  %v66 = shufflevector <8 x float> %v65, <8 x float> poison, <8 x i32> zeroinitializer
  %v67 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v66, <8 x float> %v54, <8 x float> %v51)
  %v68 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v66, <8 x float> %v56, <8 x float> %v52)
  %v69 = getelementptr inbounds float, ptr %v19, i64 48
  %v70 = load <8 x float>, ptr %v69, align 4
  %v71 = getelementptr inbounds float, ptr %v19, i64 56
  %v72 = load <8 x float>, ptr %v71, align 4
  %v73 = getelementptr inbounds float, ptr %v20, i64 3
  %v74 = load float, ptr %v73, align 4
  %v75 = insertelement <8 x float> poison, float %v74, i32 0
  %v76 = shufflevector <8 x float> %v75, <8 x float> poison, <8 x i32> zeroinitializer
  %v77 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v76, <8 x float> %v70, <8 x float> %v61)
  %v78 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v76, <8 x float> %v72, <8 x float> %v62)
  %v79 = getelementptr inbounds float, ptr %v20, i64 11
  %v80 = load float, ptr %v79, align 4
  %v81 = insertelement <8 x float> poison, float %v80, i32 0
  %v82 = shufflevector <8 x float> %v81, <8 x float> poison, <8 x i32> zeroinitializer
  %v83 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v82, <8 x float> %v70, <8 x float> %v67)
  %v84 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v82, <8 x float> %v72, <8 x float> %v68)
  %v85 = getelementptr inbounds float, ptr %v19, i64 64
  %v86 = load <8 x float>, ptr %v85, align 4
  %v87 = getelementptr inbounds float, ptr %v19, i64 72
  %v88 = load <8 x float>, ptr %v87, align 4
  %v89 = getelementptr inbounds float, ptr %v20, i64 4
  %v90 = load float, ptr %v89, align 4
  %v91 = insertelement <8 x float> poison, float %v90, i32 0
  %v92 = shufflevector <8 x float> %v91, <8 x float> poison, <8 x i32> zeroinitializer
  %v93 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v92, <8 x float> %v86, <8 x float> %v77)
  %v94 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v92, <8 x float> %v88, <8 x float> %v78)
  %v95 = getelementptr inbounds float, ptr %v20, i64 12
  %v96 = load float, ptr %v95, align 4
  %v97 = insertelement <8 x float> poison, float %v96, i32 0
  %v98 = shufflevector <8 x float> %v97, <8 x float> poison, <8 x i32> zeroinitializer
  %v99 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v98, <8 x float> %v86, <8 x float> %v83)
  %v100 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v98, <8 x float> %v88, <8 x float> %v84)
  %v101 = getelementptr inbounds float, ptr %v19, i64 80
  %v102 = load <8 x float>, ptr %v101, align 4
  %v103 = getelementptr inbounds float, ptr %v19, i64 88
  %v104 = load <8 x float>, ptr %v103, align 4
  %v105 = getelementptr inbounds float, ptr %v20, i64 5
  %v106 = load float, ptr %v105, align 4
  %v107 = insertelement <8 x float> poison, float %v106, i32 0
  %v108 = shufflevector <8 x float> %v107, <8 x float> poison, <8 x i32> zeroinitializer
  %v109 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v108, <8 x float> %v102, <8 x float> %v93)
  %v110 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v108, <8 x float> %v104, <8 x float> %v94)
  %v111 = getelementptr inbounds float, ptr %v20, i64 13
  %v112 = load float, ptr %v111, align 4
  %v113 = insertelement <8 x float> poison, float %v112, i32 0
  %v114 = shufflevector <8 x float> %v113, <8 x float> poison, <8 x i32> zeroinitializer
  %v115 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v114, <8 x float> %v102, <8 x float> %v99)
  %v116 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v114, <8 x float> %v104, <8 x float> %v100)
  %v117 = getelementptr inbounds float, ptr %v19, i64 96
  %v118 = load <8 x float>, ptr %v117, align 4
  %v119 = getelementptr inbounds float, ptr %v19, i64 104
  %v120 = load <8 x float>, ptr %v119, align 4
  %v121 = getelementptr inbounds float, ptr %v20, i64 6
  %v122 = load float, ptr %v121, align 4
  %v123 = insertelement <8 x float> poison, float %v122, i32 0
  %v124 = shufflevector <8 x float> %v123, <8 x float> poison, <8 x i32> zeroinitializer
  %v125 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v124, <8 x float> %v118, <8 x float> %v109)
  %v126 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v124, <8 x float> %v120, <8 x float> %v110)
  %v127 = getelementptr inbounds float, ptr %v20, i64 14
  %v128 = load float, ptr %v127, align 4
  %v129 = insertelement <8 x float> poison, float %v128, i32 0
  %v130 = shufflevector <8 x float> %v129, <8 x float> poison, <8 x i32> zeroinitializer
  %v131 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v130, <8 x float> %v118, <8 x float> %v115)
  %v132 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v130, <8 x float> %v120, <8 x float> %v116)
  %v133 = getelementptr inbounds float, ptr %v19, i64 112
  %v134 = load <8 x float>, ptr %v133, align 4
  %v135 = getelementptr inbounds float, ptr %v19, i64 120
  %v136 = load <8 x float>, ptr %v135, align 4
  %v137 = getelementptr inbounds float, ptr %v20, i64 7
  %v138 = load float, ptr %v137, align 4
  %v139 = insertelement <8 x float> poison, float %v138, i32 0
  %v140 = shufflevector <8 x float> %v139, <8 x float> poison, <8 x i32> zeroinitializer
  %v141 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v140, <8 x float> %v134, <8 x float> %v125)
  %v142 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v140, <8 x float> %v136, <8 x float> %v126)
  %v143 = getelementptr inbounds float, ptr %v20, i64 15
  %v144 = load float, ptr %v143, align 4
  %v145 = insertelement <8 x float> poison, float %v144, i32 0
  %v146 = shufflevector <8 x float> %v145, <8 x float> poison, <8 x i32> zeroinitializer
  %v147 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v146, <8 x float> %v134, <8 x float> %v131)
  %v148 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v146, <8 x float> %v136, <8 x float> %v132)
  br label %latch5
latch5:
  %carried10 = select i1 true, <8 x float> %v141, <8 x float> %v141
  %carried12 = select i1 true, <8 x float> %v142, <8 x float> %v142
  %carried14 = select i1 true, <8 x float> %v147, <8 x float> %v147
  %carried16 = select i1 true, <8 x float> %v148, <8 x float> %v148
  %inext8 = add i64 %i7, 8
  br label %head3
done6:
  br label %nomask151
nomask151:
  br i1 %masked, label %mask149, label %masked150
mask149:
  %v152 = trunc i64 %cols to i32
  %v153 = insertelement <8 x i32> poison, i32 %v152, i32 0
  %v154 = shufflevector <8 x i32> %v153, <8 x i32> poison, <8 x i32> zeroinitializer
  %v155 = trunc i64 %diff to i32
  %v156 = add i32 %v155, 0
  %v157 = insertelement <8 x i32> poison, i32 %v156, i32 0
  %v158 = shufflevector <8 x i32> %v157, <8 x i32> poison, <8 x i32> zeroinitializer
  %v159 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v154
  %v160 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v158
  %v161 = and <8 x i1> %v159, %v160
  %v162 = select <8 x i1> %v161, <8 x float> %carry9, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v163 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v154
  %v164 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v158
  %v165 = and <8 x i1> %v163, %v164
  %v166 = select <8 x i1> %v165, <8 x float> %carry11, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v167 = add i32 %v155, 1
  %v168 = insertelement <8 x i32> poison, i32 %v167, i32 0
  %v169 = shufflevector <8 x i32> %v168, <8 x i32> poison, <8 x i32> zeroinitializer
  %v170 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v154
  %v171 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v169
  %v172 = and <8 x i1> %v170, %v171
  %v173 = select <8 x i1> %v172, <8 x float> %carry13, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v174 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v154
  %v175 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v169
  %v176 = and <8 x i1> %v174, %v175
  %v177 = select <8 x i1> %v176, <8 x float> %carry15, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  br label %masked150
masked150:
  %v178 = phi <8 x float> [ %carry9, %nomask151 ], [ %v162, %mask149 ]
  %v179 = phi <8 x float> [ %carry11, %nomask151 ], [ %v166, %mask149 ]
  %v180 = phi <8 x float> [ %carry13, %nomask151 ], [ %v173, %mask149 ]
  %v181 = phi <8 x float> [ %carry15, %nomask151 ], [ %v177, %mask149 ]
  %v182 = fmul float %scale, 0x3FF7154760000000
  %v183 = insertelement <8 x float> poison, float %v182, i32 0
  %v184 = shufflevector <8 x float> %v183, <8 x float> poison, <8 x i32> zeroinitializer
  %v185 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v178, <8 x float> %v179)
  %v186 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v185)
  %v187 = fmul float %v186, %scale
  %v188 = getelementptr inbounds float, ptr %state, i64 0
  %v189 = load float, ptr %v188, align 4
  %v190 = call float @llvm.maxnum.f32(float %v189, float %v187)
  %v191 = fcmp oeq float %v190, 0xFFF0000000000000
  %v192 = select i1 %v191, float 0x0000000000000000, float %v190
  %v193 = fmul float %v192, 0xBFF7154760000000
  %v194 = insertelement <8 x float> poison, float %v193, i32 0
  %v195 = shufflevector <8 x float> %v194, <8 x float> poison, <8 x i32> zeroinitializer
  %v196 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v178, <8 x float> %v184, <8 x float> %v195)
  %v197 = call <8 x float> @exp2_8(<8 x float> %v196)
  %v198 = getelementptr inbounds float, ptr %slot1, i64 0
  store <8 x float> %v197, ptr %v198, align 4
  %v199 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v179, <8 x float> %v184, <8 x float> %v195)
  %v200 = call <8 x float> @exp2_8(<8 x float> %v199)
  %v201 = getelementptr inbounds float, ptr %slot1, i64 8
  store <8 x float> %v200, ptr %v201, align 4
  %v202 = fadd <8 x float> %v197, %v200
  %v203 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v202)
  %v204 = fsub float %v189, %v192
  %v205 = fmul float %v204, 0x3FF7154760000000
  %v206 = fcmp une float %v190, %v189
  %v207 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v180, <8 x float> %v181)
  %v208 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v207)
  %v209 = fmul float %v208, %scale
  %v210 = getelementptr inbounds float, ptr %state, i64 10
  %v211 = load float, ptr %v210, align 4
  %v212 = call float @llvm.maxnum.f32(float %v211, float %v209)
  %v213 = fcmp oeq float %v212, 0xFFF0000000000000
  %v214 = select i1 %v213, float 0x0000000000000000, float %v212
  %v215 = fmul float %v214, 0xBFF7154760000000
  %v216 = insertelement <8 x float> poison, float %v215, i32 0
  %v217 = shufflevector <8 x float> %v216, <8 x float> poison, <8 x i32> zeroinitializer
  %v218 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v180, <8 x float> %v184, <8 x float> %v217)
  %v219 = call <8 x float> @exp2_8(<8 x float> %v218)
  %v220 = getelementptr inbounds float, ptr %slot1, i64 16
  store <8 x float> %v219, ptr %v220, align 4
  %v221 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v181, <8 x float> %v184, <8 x float> %v217)
  %v222 = call <8 x float> @exp2_8(<8 x float> %v221)
  %v223 = getelementptr inbounds float, ptr %slot1, i64 24
  store <8 x float> %v222, ptr %v223, align 4
  %v224 = fadd <8 x float> %v219, %v222
  %v225 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v224)
  %v226 = fsub float %v211, %v214
  %v227 = fmul float %v226, 0x3FF7154760000000
  %v228 = fcmp une float %v212, %v211
  %v229 = insertelement <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, float %v205, i32 0
  %v230 = insertelement <8 x float> %v229, float %v227, i32 1
  %v231 = call <8 x float> @exp2_8(<8 x float> %v230)
  %v232 = extractelement <8 x float> %v231, i32 0
  %v233 = getelementptr inbounds float, ptr %state, i64 1
  %v234 = load float, ptr %v233, align 4
  %v235 = call float @llvm.fma.f32(float %v234, float %v232, float %v203)
  store float %v235, ptr %v233, align 4
  %v236 = getelementptr inbounds float, ptr %state, i64 0
  store float %v190, ptr %v236, align 4
  %v237 = insertelement <8 x float> poison, float %v232, i32 0
  %v238 = shufflevector <8 x float> %v237, <8 x float> poison, <8 x i32> zeroinitializer
  %v239 = or i1 false, %v206
  %v240 = extractelement <8 x float> %v231, i32 1
  %v241 = getelementptr inbounds float, ptr %state, i64 11
  %v242 = load float, ptr %v241, align 4
  %v243 = call float @llvm.fma.f32(float %v242, float %v240, float %v225)
  store float %v243, ptr %v241, align 4
  %v244 = getelementptr inbounds float, ptr %state, i64 10
  store float %v212, ptr %v244, align 4
  %v245 = insertelement <8 x float> poison, float %v240, i32 0
  %v246 = shufflevector <8 x float> %v245, <8 x float> poison, <8 x i32> zeroinitializer
  %v247 = or i1 %v239, %v228
  %v248 = sdiv i64 %cols, 4
  %v249 = mul i64 %v248, 4
  br i1 %v247, label %pv_scaled250, label %pv_plain251
pv_scaled250:
  %v253 = getelementptr inbounds float, ptr %state, i64 2
  %v254 = load <8 x float>, ptr %v253, align 4
  %v255 = fmul <8 x float> %v254, %v238
  %v256 = getelementptr inbounds float, ptr %state, i64 12
  %v257 = load <8 x float>, ptr %v256, align 4
  %v258 = fmul <8 x float> %v257, %v246
  br label %pre259
pre259:
  br label %head260
head260:
  %i264 = phi i64 [ 0, %pre259 ], [ %inext265, %latch262 ]
  %carry266 = phi <8 x float> [ %v255, %pre259 ], [ %carried267, %latch262 ]
  %carry268 = phi <8 x float> [ %v258, %pre259 ], [ %carried269, %latch262 ]
  %v270 = icmp slt i64 %i264, %v249
  br i1 %v270, label %body261, label %done263
body261:
  %v271 = add i64 %i264, 0
  %v272 = mul i64 %v271, 8
  %v273 = add i64 %v272, 0
  %v274 = getelementptr inbounds float, ptr %v, i64 %v273
  %v275 = load <8 x float>, ptr %v274, align 4
  %v276 = add i64 %v271, 0
  %v277 = getelementptr inbounds float, ptr %slot1, i64 %v276
  %v278 = load float, ptr %v277, align 4
  %v279 = insertelement <8 x float> poison, float %v278, i32 0
  %v280 = shufflevector <8 x float> %v279, <8 x float> poison, <8 x i32> zeroinitializer
  %v281 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v280, <8 x float> %v275, <8 x float> %carry266)
  %v282 = add i64 %v271, 16
  %v283 = getelementptr inbounds float, ptr %slot1, i64 %v282
  %v284 = load float, ptr %v283, align 4
  %v285 = insertelement <8 x float> poison, float %v284, i32 0
  %v286 = shufflevector <8 x float> %v285, <8 x float> poison, <8 x i32> zeroinitializer
  %v287 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v286, <8 x float> %v275, <8 x float> %carry268)
  %v288 = add i64 %i264, 1
  %v289 = mul i64 %v288, 8
  %v290 = add i64 %v289, 0
  %v291 = getelementptr inbounds float, ptr %v, i64 %v290
  %v292 = load <8 x float>, ptr %v291, align 4
  %v293 = add i64 %v288, 0
  %v294 = getelementptr inbounds float, ptr %slot1, i64 %v293
  %v295 = load float, ptr %v294, align 4
  %v296 = insertelement <8 x float> poison, float %v295, i32 0
  %v297 = shufflevector <8 x float> %v296, <8 x float> poison, <8 x i32> zeroinitializer
  %v298 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v297, <8 x float> %v292, <8 x float> %v281)
  %v299 = add i64 %v288, 16
  %v300 = getelementptr inbounds float, ptr %slot1, i64 %v299
  %v301 = load float, ptr %v300, align 4
  %v302 = insertelement <8 x float> poison, float %v301, i32 0
  %v303 = shufflevector <8 x float> %v302, <8 x float> poison, <8 x i32> zeroinitializer
  %v304 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v303, <8 x float> %v292, <8 x float> %v287)
  %v305 = add i64 %i264, 2
  %v306 = mul i64 %v305, 8
  %v307 = add i64 %v306, 0
  %v308 = getelementptr inbounds float, ptr %v, i64 %v307
  %v309 = load <8 x float>, ptr %v308, align 4
  %v310 = add i64 %v305, 0
  %v311 = getelementptr inbounds float, ptr %slot1, i64 %v310
  %v312 = load float, ptr %v311, align 4
  %v313 = insertelement <8 x float> poison, float %v312, i32 0
  %v314 = shufflevector <8 x float> %v313, <8 x float> poison, <8 x i32> zeroinitializer
  %v315 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v314, <8 x float> %v309, <8 x float> %v298)
  %v316 = add i64 %v305, 16
  %v317 = getelementptr inbounds float, ptr %slot1, i64 %v316
  %v318 = load float, ptr %v317, align 4
  %v319 = insertelement <8 x float> poison, float %v318, i32 0
  %v320 = shufflevector <8 x float> %v319, <8 x float> poison, <8 x i32> zeroinitializer
  %v321 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v320, <8 x float> %v309, <8 x float> %v304)
  %v322 = add i64 %i264, 3
  %v323 = mul i64 %v322, 8
  %v324 = add i64 %v323, 0
  %v325 = getelementptr inbounds float, ptr %v, i64 %v324
  %v326 = load <8 x float>, ptr %v325, align 4
  %v327 = add i64 %v322, 0
  %v328 = getelementptr inbounds float, ptr %slot1, i64 %v327
  %v329 = load float, ptr %v328, align 4
  %v330 = insertelement <8 x float> poison, float %v329, i32 0
  %v331 = shufflevector <8 x float> %v330, <8 x float> poison, <8 x i32> zeroinitializer
  %v332 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v331, <8 x float> %v326, <8 x float> %v315)
  %v333 = add i64 %v322, 16
  %v334 = getelementptr inbounds float, ptr %slot1, i64 %v333
  %v335 = load float, ptr %v334, align 4
  %v336 = insertelement <8 x float> poison, float %v335, i32 0
  %v337 = shufflevector <8 x float> %v336, <8 x float> poison, <8 x i32> zeroinitializer
  %v338 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v337, <8 x float> %v326, <8 x float> %v321)
  br label %latch262
latch262:
  %carried267 = select i1 true, <8 x float> %v332, <8 x float> %v332
  %carried269 = select i1 true, <8 x float> %v338, <8 x float> %v338
  %inext265 = add i64 %i264, 4
  br label %head260
done263:
  br label %pre339
pre339:
  br label %head340
head340:
  %i344 = phi i64 [ %v249, %pre339 ], [ %inext345, %latch342 ]
  %carry346 = phi <8 x float> [ %carry266, %pre339 ], [ %carried347, %latch342 ]
  %carry348 = phi <8 x float> [ %carry268, %pre339 ], [ %carried349, %latch342 ]
  %v350 = icmp slt i64 %i344, %cols
  br i1 %v350, label %body341, label %done343
body341:
  %v351 = mul i64 %i344, 8
  %v352 = add i64 %v351, 0
  %v353 = getelementptr inbounds float, ptr %v, i64 %v352
  %v354 = load <8 x float>, ptr %v353, align 4
  %v355 = add i64 %i344, 0
  %v356 = getelementptr inbounds float, ptr %slot1, i64 %v355
  %v357 = load float, ptr %v356, align 4
  %v358 = insertelement <8 x float> poison, float %v357, i32 0
  %v359 = shufflevector <8 x float> %v358, <8 x float> poison, <8 x i32> zeroinitializer
  %v360 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v359, <8 x float> %v354, <8 x float> %carry346)
  %v361 = add i64 %i344, 16
  %v362 = getelementptr inbounds float, ptr %slot1, i64 %v361
  %v363 = load float, ptr %v362, align 4
  %v364 = insertelement <8 x float> poison, float %v363, i32 0
  %v365 = shufflevector <8 x float> %v364, <8 x float> poison, <8 x i32> zeroinitializer
  %v366 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v365, <8 x float> %v354, <8 x float> %carry348)
  br label %latch342
latch342:
  %carried347 = select i1 true, <8 x float> %v360, <8 x float> %v360
  %carried349 = select i1 true, <8 x float> %v366, <8 x float> %v366
  %inext345 = add i64 %i344, 1
  br label %head340
done343:
  %v367 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry346, ptr %v367, align 4
  %v368 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry348, ptr %v368, align 4
  br label %pv_done252
pv_plain251:
  %v369 = getelementptr inbounds float, ptr %state, i64 2
  %v370 = load <8 x float>, ptr %v369, align 4
  %v371 = getelementptr inbounds float, ptr %state, i64 12
  %v372 = load <8 x float>, ptr %v371, align 4
  br label %pre373
pre373:
  br label %head374
head374:
  %i378 = phi i64 [ 0, %pre373 ], [ %inext379, %latch376 ]
  %carry380 = phi <8 x float> [ %v370, %pre373 ], [ %carried381, %latch376 ]
  %carry382 = phi <8 x float> [ %v372, %pre373 ], [ %carried383, %latch376 ]
  %v384 = icmp slt i64 %i378, %v249
  br i1 %v384, label %body375, label %done377
body375:
  %v385 = add i64 %i378, 0
  %v386 = mul i64 %v385, 8
  %v387 = add i64 %v386, 0
  %v388 = getelementptr inbounds float, ptr %v, i64 %v387
  %v389 = load <8 x float>, ptr %v388, align 4
  %v390 = add i64 %v385, 0
  %v391 = getelementptr inbounds float, ptr %slot1, i64 %v390
  %v392 = load float, ptr %v391, align 4
  %v393 = insertelement <8 x float> poison, float %v392, i32 0
  %v394 = shufflevector <8 x float> %v393, <8 x float> poison, <8 x i32> zeroinitializer
  %v395 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v394, <8 x float> %v389, <8 x float> %carry380)
  %v396 = add i64 %v385, 16
  %v397 = getelementptr inbounds float, ptr %slot1, i64 %v396
  %v398 = load float, ptr %v397, align 4
  %v399 = insertelement <8 x float> poison, float %v398, i32 0
  %v400 = shufflevector <8 x float> %v399, <8 x float> poison, <8 x i32> zeroinitializer
  %v401 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v400, <8 x float> %v389, <8 x float> %carry382)
  %v402 = add i64 %i378, 1
  %v403 = mul i64 %v402, 8
  %v404 = add i64 %v403, 0
  %v405 = getelementptr inbounds float, ptr %v, i64 %v404
  %v406 = load <8 x float>, ptr %v405, align 4
  %v407 = add i64 %v402, 0
  %v408 = getelementptr inbounds float, ptr %slot1, i64 %v407
  %v409 = load float, ptr %v408, align 4
  %v410 = insertelement <8 x float> poison, float %v409, i32 0
  %v411 = shufflevector <8 x float> %v410, <8 x float> poison, <8 x i32> zeroinitializer
  %v412 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v411, <8 x float> %v406, <8 x float> %v395)
  %v413 = add i64 %v402, 16
  %v414 = getelementptr inbounds float, ptr %slot1, i64 %v413
  %v415 = load float, ptr %v414, align 4
  %v416 = insertelement <8 x float> poison, float %v415, i32 0
  %v417 = shufflevector <8 x float> %v416, <8 x float> poison, <8 x i32> zeroinitializer
  %v418 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v417, <8 x float> %v406, <8 x float> %v401)
  %v419 = add i64 %i378, 2
  %v420 = mul i64 %v419, 8
  %v421 = add i64 %v420, 0
  %v422 = getelementptr inbounds float, ptr %v, i64 %v421
  %v423 = load <8 x float>, ptr %v422, align 4
  %v424 = add i64 %v419, 0
  %v425 = getelementptr inbounds float, ptr %slot1, i64 %v424
  %v426 = load float, ptr %v425, align 4
  %v427 = insertelement <8 x float> poison, float %v426, i32 0
  %v428 = shufflevector <8 x float> %v427, <8 x float> poison, <8 x i32> zeroinitializer
  %v429 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v428, <8 x float> %v423, <8 x float> %v412)
  %v430 = add i64 %v419, 16
  %v431 = getelementptr inbounds float, ptr %slot1, i64 %v430
  %v432 = load float, ptr %v431, align 4
  %v433 = insertelement <8 x float> poison, float %v432, i32 0
  %v434 = shufflevector <8 x float> %v433, <8 x float> poison, <8 x i32> zeroinitializer
  %v435 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v434, <8 x float> %v423, <8 x float> %v418)
  %v436 = add i64 %i378, 3
  %v437 = mul i64 %v436, 8
  %v438 = add i64 %v437, 0
  %v439 = getelementptr inbounds float, ptr %v, i64 %v438
  %v440 = load <8 x float>, ptr %v439, align 4
  %v441 = add i64 %v436, 0
  %v442 = getelementptr inbounds float, ptr %slot1, i64 %v441
  %v443 = load float, ptr %v442, align 4
  %v444 = insertelement <8 x float> poison, float %v443, i32 0
  %v445 = shufflevector <8 x float> %v444, <8 x float> poison, <8 x i32> zeroinitializer
  %v446 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v445, <8 x float> %v440, <8 x float> %v429)
  %v447 = add i64 %v436, 16
  %v448 = getelementptr inbounds float, ptr %slot1, i64 %v447
  %v449 = load float, ptr %v448, align 4
  %v450 = insertelement <8 x float> poison, float %v449, i32 0
  %v451 = shufflevector <8 x float> %v450, <8 x float> poison, <8 x i32> zeroinitializer
  %v452 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v451, <8 x float> %v440, <8 x float> %v435)
  br label %latch376
latch376:
  %carried381 = select i1 true, <8 x float> %v446, <8 x float> %v446
  %carried383 = select i1 true, <8 x float> %v452, <8 x float> %v452
  %inext379 = add i64 %i378, 4
  br label %head374
done377:
  br label %pre453
pre453:
  br label %head454
head454:
  %i458 = phi i64 [ %v249, %pre453 ], [ %inext459, %latch456 ]
  %carry460 = phi <8 x float> [ %carry380, %pre453 ], [ %carried461, %latch456 ]
  %carry462 = phi <8 x float> [ %carry382, %pre453 ], [ %carried463, %latch456 ]
  %v464 = icmp slt i64 %i458, %cols
  br i1 %v464, label %body455, label %done457
body455:
  %v465 = mul i64 %i458, 8
  %v466 = add i64 %v465, 0
  %v467 = getelementptr inbounds float, ptr %v, i64 %v466
  %v468 = load <8 x float>, ptr %v467, align 4
  %v469 = add i64 %i458, 0
  %v470 = getelementptr inbounds float, ptr %slot1, i64 %v469
  %v471 = load float, ptr %v470, align 4
  %v472 = insertelement <8 x float> poison, float %v471, i32 0
  %v473 = shufflevector <8 x float> %v472, <8 x float> poison, <8 x i32> zeroinitializer
  %v474 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v473, <8 x float> %v468, <8 x float> %carry460)
  %v475 = add i64 %i458, 16
  %v476 = getelementptr inbounds float, ptr %slot1, i64 %v475
  %v477 = load float, ptr %v476, align 4
  %v478 = insertelement <8 x float> poison, float %v477, i32 0
  %v479 = shufflevector <8 x float> %v478, <8 x float> poison, <8 x i32> zeroinitializer
  %v480 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v479, <8 x float> %v468, <8 x float> %carry462)
  br label %latch456
latch456:
  %carried461 = select i1 true, <8 x float> %v474, <8 x float> %v474
  %carried463 = select i1 true, <8 x float> %v480, <8 x float> %v480
  %inext459 = add i64 %i458, 1
  br label %head454
done457:
  %v481 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry460, ptr %v481, align 4
  %v482 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry462, ptr %v482, align 4
  br label %pv_done252
pv_done252:
  ret void
}

define void @attn_fwd_d8_causal_fp32_g1_t2x16(ptr noalias %args) "target-cpu"="x86-64-v3" "target-features"="+avx2,+fma" nounwind {
entry:
  %slot7 = alloca [128 x float], align 32
  %slot8 = alloca [128 x float], align 32
  %v1 = getelementptr inbounds i8, ptr %args, i64 0
  %v2 = load ptr, ptr %v1, align 8
  %v3 = getelementptr inbounds i8, ptr %args, i64 8
  %v4 = load ptr, ptr %v3, align 8
  %v5 = getelementptr inbounds i8, ptr %args, i64 16
  %v6 = load ptr, ptr %v5, align 8
  %v9 = getelementptr inbounds i8, ptr %args, i64 32
  %v10 = load i64, ptr %v9, align 8
  %v11 = getelementptr inbounds i8, ptr %args, i64 40
  %v12 = load i64, ptr %v11, align 8
  %v13 = getelementptr inbounds i8, ptr %args, i64 48
  %v14 = load i64, ptr %v13, align 8
  %v15 = getelementptr inbounds i8, ptr %args, i64 56
  %v16 = load i64, ptr %v15, align 8
  %v17 = getelementptr inbounds i8, ptr %args, i64 64
  %v18 = load i64, ptr %v17, align 8
  %v19 = getelementptr inbounds i8, ptr %args, i64 72
  %v20 = load float, ptr %v19, align 4
  br label %pre21
pre21:
  br label %head22
head22:
  %i26 = phi i64 [ 0, %pre21 ], [ %inext27, %latch24 ]
  %v28 = icmp slt i64 %i26, %v12
  br i1 %v28, label %body23, label %done25
body23:
  %v29 = add i64 %i26, 256
  %v30 = call i64 @llvm.smin.i64(i64 %v29, i64 %v12)
  %v31 = add i64 %v16, %i26
  %v32 = add i64 %v16, %v30
  %v33 = sub i64 %v32, 1
  %v34 = add i64 %v33, 1
  %v35 = sub i64 %v34, %v18
  %v36 = call i64 @llvm.smax.i64(i64 %v35, i64 0)
  %v37 = call i64 @llvm.smin.i64(i64 %v36, i64 %v14)
  br label %pre38
pre38:
  br label %head39
head39:
  %i43 = phi i64 [ 0, %pre38 ], [ %inext44, %latch41 ]
  %v45 = icmp slt i64 %i43, %v37
  br i1 %v45, label %body40, label %done42
body40:
  %v46 = sub i64 %v37, %i43
  %v47 = call i64 @llvm.smin.i64(i64 %v46, i64 16)
  br label %pre48
pre48:
  br label %head49
head49:
  %i53 = phi i64 [ 0, %pre48 ], [ %inext54, %latch51 ]
  %v55 = icmp slt i64 %i53, %v47
  br i1 %v55, label %body50, label %done52
body50:
  %v56 = add i64 %i43, %i53
  %v57 = mul i64 %v56, %v10
  %v58 = getelementptr inbounds float, ptr %v4, i64 %v57
  %v59 = getelementptr inbounds float, ptr %v58, i64 0
  %v60 = load float, ptr %v59, align 4
  %v61 = add i64 %i53, 0
  %v62 = getelementptr inbounds float, ptr %slot7, i64 %v61
  store float %v60, ptr %v62, align 4
  %v63 = getelementptr inbounds float, ptr %v58, i64 1
  %v64 = load float, ptr %v63, align 4
  %v65 = add i64 %i53, 16
  %v66 = getelementptr inbounds float, ptr %slot7, i64 %v65
  store float %v64, ptr %v66, align 4
  %v67 = getelementptr inbounds float, ptr %v58, i64 2
  %v68 = load float, ptr %v67, align 4
  %v69 = add i64 %i53, 32
  %v70 = getelementptr inbounds float, ptr %slot7, i64 %v69
  store float %v68, ptr %v70, align 4
  %v71 = getelementptr inbounds float, ptr %v58, i64 3
  %v72 = load float, ptr %v71, align 4
  %v73 = add i64 %i53, 48
  %v74 = getelementptr inbounds float, ptr %slot7, i64 %v73
  store float %v72, ptr %v74, align 4
  %v75 = getelementptr inbounds float, ptr %v58, i64 4
  %v76 = load float, ptr %v75, align 4
  %v77 = add i64 %i53, 64
  %v78 = getelementptr inbounds float, ptr %slot7, i64 %v77
  store float %v76, ptr %v78, align 4
  %v79 = getelementptr inbounds float, ptr %v58, i64 5
  %v80 = load float, ptr %v79, align 4
  %v81 = add i64 %i53, 80
  %v82 = getelementptr inbounds float, ptr %slot7, i64 %v81
  store float %v80, ptr %v82, align 4
  %v83 = getelementptr inbounds float, ptr %v58, i64 6
  %v84 = load float, ptr %v83, align 4
  %v85 = add i64 %i53, 96
  %v86 = getelementptr inbounds float, ptr %slot7, i64 %v85
  store float %v84, ptr %v86, align 4
  %v87 = getelementptr inbounds float, ptr %v58, i64 7
  %v88 = load float, ptr %v87, align 4
  %v89 = add i64 %i53, 112
  %v90 = getelementptr inbounds float, ptr %slot7, i64 %v89
  store float %v88, ptr %v90, align 4
  %v91 = getelementptr inbounds float, ptr %v58, i64 8
  %v92 = mul i64 %i53, 8
  %v93 = getelementptr inbounds float, ptr %slot8, i64 %v92
  %v94 = getelementptr inbounds float, ptr %v91, i64 0
  %v95 = load <8 x float>, ptr %v94, align 4
  %v96 = getelementptr inbounds float, ptr %v93, i64 0
  store <8 x float> %v95, ptr %v96, align 4
  br label %latch51
latch51:
  %inext54 = add i64 %i53, 1
  br label %head49
done52:
  %v97 = add i64 %v18, %i43
  %v98 = add i64 %v97, %v47
  %v99 = sub i64 %v98, 1
  %v100 = sub i64 %v97, %v16
  %v101 = call i64 @llvm.smax.i64(i64 %v100, i64 0)
  %v102 = call i64 @llvm.smin.i64(i64 %v101, i64 %v12)
  %v103 = sdiv i64 %v102, 2
  %v104 = mul i64 %v103, 2
  %v105 = add i64 %v12, 1
  %v106 = sdiv i64 %v105, 2
  %v107 = mul i64 %v106, 2
  %v108 = call i64 @llvm.smax.i64(i64 %v104, i64 %i26)
  %v109 = call i64 @llvm.smin.i64(i64 %v107, i64 %v30)
  %v110 = icmp slt i64 %v47, 16
  %v111 = sub i64 %v109, %v108
  %v112 = call i64 @llvm.smax.i64(i64 %v111, i64 0)
  %v113 = sdiv i64 %v112, 4
  %v114 = mul i64 %v113, 4
  %v115 = add i64 %v108, %v114
  br label %pre116
pre116:
  br label %head117
head117:
  %i121 = phi i64 [ %v108, %pre116 ], [ %inext122, %latch119 ]
  %v123 = icmp slt i64 %i121, %v115
  br i1 %v123, label %body118, label %done120
body118:
  %v124 = add i64 %v16, %i121
  %v125 = add i64 %v124, 4
  %v126 = sub i64 %v125, 1
  %v127 = icmp sgt i64 %v99, %v124
  %v128 = or i1 %v110, %v127
  %v129 = sub i64 %v124, %v97
  %v130 = call i64 @llvm.smax.i64(i64 %v129, i64 -1073741824)
  %v131 = call i64 @llvm.smin.i64(i64 %v130, i64 1073741824)
  %v132 = mul i64 %i121, 8
  %v133 = getelementptr inbounds float, ptr %v2, i64 %v132
  %v134 = mul i64 %i121, 10
  %v135 = getelementptr inbounds float, ptr %v6, i64 %v134
  call void @tile4(ptr %v133, ptr %v135, ptr %slot7, ptr %slot8, i64 %v47, i64 %v131, i1 %v128, float %v20)
  br label %latch119
latch119:
  %inext122 = add i64 %i121, 4
  br label %head117
done120:
  br label %pre136
pre136:
  br label %head137
head137:
  %i141 = phi i64 [ %v115, %pre136 ], [ %inext142, %latch139 ]
  %v143 = icmp slt i64 %i141, %v109
  br i1 %v143, label %body138, label %done140
body138:
  %v144 = add i64 %v16, %i141
  %v145 = add i64 %v144, 2
  %v146 = sub i64 %v145, 1
  %v147 = icmp sgt i64 %v99, %v144
  %v148 = or i1 %v110, %v147
  %v149 = sub i64 %v144, %v97
  %v150 = call i64 @llvm.smax.i64(i64 %v149, i64 -1073741824)
  %v151 = call i64 @llvm.smin.i64(i64 %v150, i64 1073741824)
  %v152 = mul i64 %i141, 8
  %v153 = getelementptr inbounds float, ptr %v2, i64 %v152
  %v154 = mul i64 %i141, 10
  %v155 = getelementptr inbounds float, ptr %v6, i64 %v154
  call void @tile2(ptr %v153, ptr %v155, ptr %slot7, ptr %slot8, i64 %v47, i64 %v151, i1 %v148, float %v20)
  br label %latch139
latch139:
  %inext142 = add i64 %i141, 2
  br label %head137
done140:
  br label %latch41
latch41:
  %inext44 = add i64 %i43, 16
  br label %head39
done42:
  br label %latch24
latch24:
  %inext27 = add i64 %i26, 256
  br label %head22
done25:
  ret void
}
