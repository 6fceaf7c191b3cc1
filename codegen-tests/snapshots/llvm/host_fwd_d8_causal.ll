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
  %slot1 = alloca [96 x float], align 32
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
  %carry25 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried26, %latch5 ]
  %carry27 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried28, %latch5 ]
  %carry29 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried30, %latch5 ]
  %carry31 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre2 ], [ %carried32, %latch5 ]
  %v33 = icmp slt i64 %i7, 8
  br i1 %v33, label %body4, label %done6
body4:
  %v34 = mul i64 %i7, 24
  %v35 = getelementptr inbounds float, ptr %kt, i64 %v34
  %v36 = getelementptr inbounds float, ptr %q, i64 %i7
  %v37 = getelementptr inbounds float, ptr %v35, i64 0
  %v38 = load <8 x float>, ptr %v37, align 4
  %v39 = getelementptr inbounds float, ptr %v35, i64 8
  %v40 = load <8 x float>, ptr %v39, align 4
  %v41 = getelementptr inbounds float, ptr %v35, i64 16
  %v42 = load <8 x float>, ptr %v41, align 4
  %v43 = getelementptr inbounds float, ptr %v36, i64 0
  %v44 = load float, ptr %v43, align 4
  %v45 = insertelement <8 x float> poison, float %v44, i32 0
  %v46 = shufflevector <8 x float> %v45, <8 x float> poison, <8 x i32> zeroinitializer
  %v47 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v46, <8 x float> %v38, <8 x float> %carry9)
  %v48 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v46, <8 x float> %v40, <8 x float> %carry11)
  %v49 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v46, <8 x float> %v42, <8 x float> %carry13)
  %v50 = getelementptr inbounds float, ptr %v36, i64 8
  %v51 = load float, ptr %v50, align 4
  %v52 = insertelement <8 x float> poison, float %v51, i32 0
  %v53 = shufflevector <8 x float> %v52, <8 x float> poison, <8 x i32> zeroinitializer
  %v54 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v53, <8 x float> %v38, <8 x float> %carry15)
  %v55 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v53, <8 x float> %v40, <8 x float> %carry17)
  %v56 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v53, <8 x float> %v42, <8 x float> %carry19)
  %v57 = getelementptr inbounds float, ptr %v36, i64 16
  %v58 = load float, ptr %v57, align 4
  %v59 = insertelement <8 x float> poison, float %v58, i32 0
  %v60 = shufflevector <8 x float> %v59, <8 x float> poison, <8 x i32> zeroinitializer
  %v61 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v60, <8 x float> %v38, <8 x float> %carry21)
  %v62 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v60, <8 x float> %v40, <8 x float> %carry23)
  %v63 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v60, <8 x float> %v42, <8 x float> %carry25)
  %v64 = getelementptr inbounds float, ptr %v36, i64 24
  %v65 = load float, ptr %v64, align 4
  %v66 = insertelement <8 x float> poison, float %v65, i32 0
  %v67 = shufflevector <8 x float> %v66, <8 x float> poison, <8 x i32> zeroinitializer
  %v68 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v67, <8 x float> %v38, <8 x float> %carry27)
  %v69 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v67, <8 x float> %v40, <8 x float> %carry29)
  %v70 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v67, <8 x float> %v42, <8 x float> %carry31)
  %v71 = getelementptr inbounds float, ptr %v35, i64 24
  %v72 = load <8 x float>, ptr %v71, align 4
  %v73 = getelementptr inbounds float, ptr %v35, i64 32
  %v74 = load <8 x float>, ptr %v73, align 4
  %v75 = getelementptr inbounds float, ptr %v35, i64 40
  %v76 = load <8 x float>, ptr %v75, align 4
  %v77 = getelementptr inbounds float, ptr %v36, i64 1
  %v78 = load float, ptr %v77, align 4
  %v79 = insertelement <8 x float> poison, float %v78, i32 0
  %v80 = shufflevector <8 x float> %v79, <8 x float> poison, <8 x i32> zeroinitializer
  %v81 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v80, <8 x float> %v72, <8 x float> %v47)
  %v82 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v80, <8 x float> %v74, <8 x float> %v48)
  %v83 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v80, <8 x float> %v76, <8 x float> %v49)
  %v84 = getelementptr inbounds float, ptr %v36, i64 9
  %v85 = load float, ptr %v84, align 4
  %v86 = insertelement <8 x float> poison, float %v85, i32 0
  %v87 = shufflevector <8 x float> %v86, <8 x float> poison, <8 x i32> zeroinitializer
  %v88 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v87, <8 x float> %v72, <8 x float> %v54)
  %v89 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v87, <8 x float> %v74, <8 x float> %v55)
  %v90 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v87, <8 x float> %v76, <8 x float> %v56)
  %v91 = getelementptr inbounds float, ptr %v36, i64 17
  %v92 = load float, ptr %v91, align 4
  %v93 = insertelement <8 x float> poison, float %v92, i32 0
  %v94 = shufflevector <8 x float> %v93, <8 x float> poison, <8 x i32> zeroinitializer
  %v95 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v94, <8 x float> %v72, <8 x float> %v61)
  %v96 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v94, <8 x float> %v74, <8 x float> %v62)
  %v97 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v94, <8 x float> %v76, <8 x float> %v63)
  %v98 = getelementptr inbounds float, ptr %v36, i64 25
  %v99 = load float, ptr %v98, align 4
  %v100 = insertelement <8 x float> poison, float %v99, i32 0
  %v101 = shufflevector <8 x float> %v100, <8 x float> poison, <8 x i32> zeroinitializer
  %v102 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v101, <8 x float> %v72, <8 x float> %v68)
  %v103 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v101, <8 x float> %v74, <8 x float> %v69)
  %v104 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v101, <8 x float> %v76, <8 x float> %v70)
  %v105 = getelementptr inbounds float, ptr %v35, i64 48
  %v106 = load <8 x float>, ptr %v105, align 4
  %v107 = getelementptr inbounds float, ptr %v35, i64 56
  %v108 = load <8 x float>, ptr %v107, align 4
  %v109 = getelementptr inbounds float, ptr %v35, i64 64
  %v110 = load <8 x float>, ptr %v109, align 4
  %v111 = getelementptr inbounds float, ptr %v36, i64 2
  %v112 = load float, ptr %v111, align 4
  %v113 = insertelement <8 x float> poison, float %v112, i32 0
  %v114 = shufflevector <8 x float> %v113, <8 x float> poison, <8 x i32> zeroinitializer
  %v115 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v114, <8 x float> %v106, <8 x float> %v81)
  %v116 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v114, <8 x float> %v108, <8 x float> %v82)
  %v117 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v114, <8 x float> %v110, <8 x float> %v83)
  %v118 = getelementptr inbounds float, ptr %v36, i64 10
  %v119 = load float, ptr %v118, align 4
  %v120 = insertelement <8 x float> poison, float %v119, i32 0
  %v121 = shufflevector <8 x float> %v120, <8 x float> poison, <8 x i32> zeroinitializer
  %v122 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v106, <8 x float> %v88)
  %v123 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v108, <8 x float> %v89)
  %v124 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v110, <8 x float> %v90)
  %v125 = getelementptr inbounds float, ptr %v36, i64 18
  %v126 = load float, ptr %v125, align 4
  %v127 = insertelement <8 x float> poison, float %v126, i32 0
  %v128 = shufflevector <8 x float> %v127, <8 x float> poison, <8 x i32> zeroinitializer
  %v129 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v128, <8 x float> %v106, <8 x float> %v95)
  %v130 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v128, <8 x float> %v108, <8 x float> %v96)
  %v131 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v128, <8 x float> %v110, <8 x float> %v97)
  %v132 = getelementptr inbounds float, ptr %v36, i64 26
  %v133 = load float, ptr %v132, align 4
  %v134 = insertelement <8 x float> poison, float %v133, i32 0
  %v135 = shufflevector <8 x float> %v134, <8 x float> poison, <8 x i32> zeroinitializer
  %v136 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v135, <8 x float> %v106, <8 x float> %v102)
  %v137 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v135, <8 x float> %v108, <8 x float> %v103)
  %v138 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v135, <8 x float> %v110, <8 x float> %v104)
  %v139 = getelementptr inbounds float, ptr %v35, i64 72
  %v140 = load <8 x float>, ptr %v139, align 4
  %v141 = getelementptr inbounds float, ptr %v35, i64 80
  %v142 = load <8 x float>, ptr %v141, align 4
  %v143 = getelementptr inbounds float, ptr %v35, i64 88
  %v144 = load <8 x float>, ptr %v143, align 4
  %v145 = getelementptr inbounds float, ptr %v36, i64 3
  %v146 = load float, ptr %v145, align 4
  %v147 = insertelement <8 x float> poison, float %v146, i32 0
  %v148 = shufflevector <8 x float> %v147, <8 x float> poison, <8 x i32> zeroinitializer
  %v149 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v148, <8 x float> %v140, <8 x float> %v115)
  %v150 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v148, <8 x float> %v142, <8 x float> %v116)
  %v151 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v148, <8 x float> %v144, <8 x float> %v117)
  %v152 = getelementptr inbounds float, ptr %v36, i64 11
  %v153 = load float, ptr %v152, align 4
  %v154 = insertelement <8 x float> poison, float %v153, i32 0
  %v155 = shufflevector <8 x float> %v154, <8 x float> poison, <8 x i32> zeroinitializer
  %v156 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v155, <8 x float> %v140, <8 x float> %v122)
  %v157 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v155, <8 x float> %v142, <8 x float> %v123)
  %v158 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v155, <8 x float> %v144, <8 x float> %v124)
  %v159 = getelementptr inbounds float, ptr %v36, i64 19
  %v160 = load float, ptr %v159, align 4
  %v161 = insertelement <8 x float> poison, float %v160, i32 0
  %v162 = shufflevector <8 x float> %v161, <8 x float> poison, <8 x i32> zeroinitializer
  %v163 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v162, <8 x float> %v140, <8 x float> %v129)
  %v164 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v162, <8 x float> %v142, <8 x float> %v130)
  %v165 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v162, <8 x float> %v144, <8 x float> %v131)
  %v166 = getelementptr inbounds float, ptr %v36, i64 27
  %v167 = load float, ptr %v166, align 4
  %v168 = insertelement <8 x float> poison, float %v167, i32 0
  %v169 = shufflevector <8 x float> %v168, <8 x float> poison, <8 x i32> zeroinitializer
  %v170 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v169, <8 x float> %v140, <8 x float> %v136)
  %v171 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v169, <8 x float> %v142, <8 x float> %v137)
  %v172 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v169, <8 x float> %v144, <8 x float> %v138)
  %v173 = getelementptr inbounds float, ptr %v35, i64 96
  %v174 = load <8 x float>, ptr %v173, align 4
  %v175 = getelementptr inbounds float, ptr %v35, i64 104
  %v176 = load <8 x float>, ptr %v175, align 4
  %v177 = getelementptr inbounds float, ptr %v35, i64 112
  %v178 = load <8 x float>, ptr %v177, align 4
  %v179 = getelementptr inbounds float, ptr %v36, i64 4
  %v180 = load float, ptr %v179, align 4
  %v181 = insertelement <8 x float> poison, float %v180, i32 0
  %v182 = shufflevector <8 x float> %v181, <8 x float> poison, <8 x i32> zeroinitializer
  %v183 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v182, <8 x float> %v174, <8 x float> %v149)
  %v184 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v182, <8 x float> %v176, <8 x float> %v150)
  %v185 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v182, <8 x float> %v178, <8 x float> %v151)
  %v186 = getelementptr inbounds float, ptr %v36, i64 12
  %v187 = load float, ptr %v186, align 4
  %v188 = insertelement <8 x float> poison, float %v187, i32 0
  %v189 = shufflevector <8 x float> %v188, <8 x float> poison, <8 x i32> zeroinitializer
  %v190 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v189, <8 x float> %v174, <8 x float> %v156)
  %v191 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v189, <8 x float> %v176, <8 x float> %v157)
  %v192 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v189, <8 x float> %v178, <8 x float> %v158)
  %v193 = getelementptr inbounds float, ptr %v36, i64 20
  %v194 = load float, ptr %v193, align 4
  %v195 = insertelement <8 x float> poison, float %v194, i32 0
  %v196 = shufflevector <8 x float> %v195, <8 x float> poison, <8 x i32> zeroinitializer
  %v197 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v196, <8 x float> %v174, <8 x float> %v163)
  %v198 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v196, <8 x float> %v176, <8 x float> %v164)
  %v199 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v196, <8 x float> %v178, <8 x float> %v165)
  %v200 = getelementptr inbounds float, ptr %v36, i64 28
  %v201 = load float, ptr %v200, align 4
  %v202 = insertelement <8 x float> poison, float %v201, i32 0
  %v203 = shufflevector <8 x float> %v202, <8 x float> poison, <8 x i32> zeroinitializer
  %v204 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v203, <8 x float> %v174, <8 x float> %v170)
  %v205 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v203, <8 x float> %v176, <8 x float> %v171)
  %v206 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v203, <8 x float> %v178, <8 x float> %v172)
  %v207 = getelementptr inbounds float, ptr %v35, i64 120
  %v208 = load <8 x float>, ptr %v207, align 4
  %v209 = getelementptr inbounds float, ptr %v35, i64 128
  %v210 = load <8 x float>, ptr %v209, align 4
  %v211 = getelementptr inbounds float, ptr %v35, i64 136
  %v212 = load <8 x float>, ptr %v211, align 4
  %v213 = getelementptr inbounds float, ptr %v36, i64 5
  %v214 = load float, ptr %v213, align 4
  %v215 = insertelement <8 x float> poison, float %v214, i32 0
  %v216 = shufflevector <8 x float> %v215, <8 x float> poison, <8 x i32> zeroinitializer
  %v217 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v216, <8 x float> %v208, <8 x float> %v183)
  %v218 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v216, <8 x float> %v210, <8 x float> %v184)
  %v219 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v216, <8 x float> %v212, <8 x float> %v185)
  %v220 = getelementptr inbounds float, ptr %v36, i64 13
  %v221 = load float, ptr %v220, align 4
  %v222 = insertelement <8 x float> poison, float %v221, i32 0
  %v223 = shufflevector <8 x float> %v222, <8 x float> poison, <8 x i32> zeroinitializer
  %v224 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v223, <8 x float> %v208, <8 x float> %v190)
  %v225 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v223, <8 x float> %v210, <8 x float> %v191)
  %v226 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v223, <8 x float> %v212, <8 x float> %v192)
  %v227 = getelementptr inbounds float, ptr %v36, i64 21
  %v228 = load float, ptr %v227, align 4
  %v229 = insertelement <8 x float> poison, float %v228, i32 0
  %v230 = shufflevector <8 x float> %v229, <8 x float> poison, <8 x i32> zeroinitializer
  %v231 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v230, <8 x float> %v208, <8 x float> %v197)
  %v232 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v230, <8 x float> %v210, <8 x float> %v198)
  %v233 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v230, <8 x float> %v212, <8 x float> %v199)
  %v234 = getelementptr inbounds float, ptr %v36, i64 29
  %v235 = load float, ptr %v234, align 4
  %v236 = insertelement <8 x float> poison, float %v235, i32 0
  %v237 = shufflevector <8 x float> %v236, <8 x float> poison, <8 x i32> zeroinitializer
  %v238 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v237, <8 x float> %v208, <8 x float> %v204)
  %v239 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v237, <8 x float> %v210, <8 x float> %v205)
  %v240 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v237, <8 x float> %v212, <8 x float> %v206)
  %v241 = getelementptr inbounds float, ptr %v35, i64 144
  %v242 = load <8 x float>, ptr %v241, align 4
  %v243 = getelementptr inbounds float, ptr %v35, i64 152
  %v244 = load <8 x float>, ptr %v243, align 4
  %v245 = getelementptr inbounds float, ptr %v35, i64 160
  %v246 = load <8 x float>, ptr %v245, align 4
  %v247 = getelementptr inbounds float, ptr %v36, i64 6
  %v248 = load float, ptr %v247, align 4
  %v249 = insertelement <8 x float> poison, float %v248, i32 0
  %v250 = shufflevector <8 x float> %v249, <8 x float> poison, <8 x i32> zeroinitializer
  %v251 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v250, <8 x float> %v242, <8 x float> %v217)
  %v252 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v250, <8 x float> %v244, <8 x float> %v218)
  %v253 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v250, <8 x float> %v246, <8 x float> %v219)
  %v254 = getelementptr inbounds float, ptr %v36, i64 14
  %v255 = load float, ptr %v254, align 4
  %v256 = insertelement <8 x float> poison, float %v255, i32 0
  %v257 = shufflevector <8 x float> %v256, <8 x float> poison, <8 x i32> zeroinitializer
  %v258 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v257, <8 x float> %v242, <8 x float> %v224)
  %v259 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v257, <8 x float> %v244, <8 x float> %v225)
  %v260 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v257, <8 x float> %v246, <8 x float> %v226)
  %v261 = getelementptr inbounds float, ptr %v36, i64 22
  %v262 = load float, ptr %v261, align 4
  %v263 = insertelement <8 x float> poison, float %v262, i32 0
  %v264 = shufflevector <8 x float> %v263, <8 x float> poison, <8 x i32> zeroinitializer
  %v265 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v264, <8 x float> %v242, <8 x float> %v231)
  %v266 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v264, <8 x float> %v244, <8 x float> %v232)
  %v267 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v264, <8 x float> %v246, <8 x float> %v233)
  %v268 = getelementptr inbounds float, ptr %v36, i64 30
  %v269 = load float, ptr %v268, align 4
  %v270 = insertelement <8 x float> poison, float %v269, i32 0
  %v271 = shufflevector <8 x float> %v270, <8 x float> poison, <8 x i32> zeroinitializer
  %v272 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v271, <8 x float> %v242, <8 x float> %v238)
  %v273 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v271, <8 x float> %v244, <8 x float> %v239)
  %v274 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v271, <8 x float> %v246, <8 x float> %v240)
  %v275 = getelementptr inbounds float, ptr %v35, i64 168
  %v276 = load <8 x float>, ptr %v275, align 4
  %v277 = getelementptr inbounds float, ptr %v35, i64 176
  %v278 = load <8 x float>, ptr %v277, align 4
  %v279 = getelementptr inbounds float, ptr %v35, i64 184
  %v280 = load <8 x float>, ptr %v279, align 4
  %v281 = getelementptr inbounds float, ptr %v36, i64 7
  %v282 = load float, ptr %v281, align 4
  %v283 = insertelement <8 x float> poison, float %v282, i32 0
  %v284 = shufflevector <8 x float> %v283, <8 x float> poison, <8 x i32> zeroinitializer
  %v285 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v284, <8 x float> %v276, <8 x float> %v251)
  %v286 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v284, <8 x float> %v278, <8 x float> %v252)
  %v287 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v284, <8 x float> %v280, <8 x float> %v253)
  %v288 = getelementptr inbounds float, ptr %v36, i64 15
  %v289 = load float, ptr %v288, align 4
  %v290 = insertelement <8 x float> poison, float %v289, i32 0
  %v291 = shufflevector <8 x float> %v290, <8 x float> poison, <8 x i32> zeroinitializer
  %v292 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v291, <8 x float> %v276, <8 x float> %v258)
  %v293 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v291, <8 x float> %v278, <8 x float> %v259)
  %v294 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v291, <8 x float> %v280, <8 x float> %v260)
  %v295 = getelementptr inbounds float, ptr %v36, i64 23
  %v296 = load float, ptr %v295, align 4
  %v297 = insertelement <8 x float> poison, float %v296, i32 0
  %v298 = shufflevector <8 x float> %v297, <8 x float> poison, <8 x i32> zeroinitializer
  %v299 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v298, <8 x float> %v276, <8 x float> %v265)
  %v300 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v298, <8 x float> %v278, <8 x float> %v266)
  %v301 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v298, <8 x float> %v280, <8 x float> %v267)
  %v302 = getelementptr inbounds float, ptr %v36, i64 31
  %v303 = load float, ptr %v302, align 4
  %v304 = insertelement <8 x float> poison, float %v303, i32 0
  %v305 = shufflevector <8 x float> %v304, <8 x float> poison, <8 x i32> zeroinitializer
  %v306 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v305, <8 x float> %v276, <8 x float> %v272)
  %v307 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v305, <8 x float> %v278, <8 x float> %v273)
  %v308 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v305, <8 x float> %v280, <8 x float> %v274)
  br label %latch5
latch5:
  %carried10 = select i1 true, <8 x float> %v285, <8 x float> %v285
  %carried12 = select i1 true, <8 x float> %v286, <8 x float> %v286
  %carried14 = select i1 true, <8 x float> %v287, <8 x float> %v287
  %carried16 = select i1 true, <8 x float> %v292, <8 x float> %v292
  %carried18 = select i1 true, <8 x float> %v293, <8 x float> %v293
  %carried20 = select i1 true, <8 x float> %v294, <8 x float> %v294
  %carried22 = select i1 true, <8 x float> %v299, <8 x float> %v299
  %carried24 = select i1 true, <8 x float> %v300, <8 x float> %v300
  %carried26 = select i1 true, <8 x float> %v301, <8 x float> %v301
  %carried28 = select i1 true, <8 x float> %v306, <8 x float> %v306
  %carried30 = select i1 true, <8 x float> %v307, <8 x float> %v307
  %carried32 = select i1 true, <8 x float> %v308, <8 x float> %v308
  %inext8 = add i64 %i7, 8
  br label %head3
done6:
  br label %nomask311
nomask311:
  br i1 %masked, label %mask309, label %masked310
mask309:
  %v312 = trunc i64 %cols to i32
  %v313 = insertelement <8 x i32> poison, i32 %v312, i32 0
  %v314 = shufflevector <8 x i32> %v313, <8 x i32> poison, <8 x i32> zeroinitializer
  %v315 = trunc i64 %diff to i32
  %v316 = add i32 %v315, 0
  %v317 = insertelement <8 x i32> poison, i32 %v316, i32 0
  %v318 = shufflevector <8 x i32> %v317, <8 x i32> poison, <8 x i32> zeroinitializer
  %v319 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v314
  %v320 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v318
  %v321 = and <8 x i1> %v319, %v320
  %v322 = select <8 x i1> %v321, <8 x float> %carry9, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v323 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v314
  %v324 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v318
  %v325 = and <8 x i1> %v323, %v324
  %v326 = select <8 x i1> %v325, <8 x float> %carry11, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v327 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v314
  %v328 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v318
  %v329 = and <8 x i1> %v327, %v328
  %v330 = select <8 x i1> %v329, <8 x float> %carry13, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v331 = add i32 %v315, 1
  %v332 = insertelement <8 x i32> poison, i32 %v331, i32 0
  %v333 = shufflevector <8 x i32> %v332, <8 x i32> poison, <8 x i32> zeroinitializer
  %v334 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v314
  %v335 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v333
  %v336 = and <8 x i1> %v334, %v335
  %v337 = select <8 x i1> %v336, <8 x float> %carry15, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v338 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v314
  %v339 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v333
  %v340 = and <8 x i1> %v338, %v339
  %v341 = select <8 x i1> %v340, <8 x float> %carry17, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v342 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v314
  %v343 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v333
  %v344 = and <8 x i1> %v342, %v343
  %v345 = select <8 x i1> %v344, <8 x float> %carry19, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v346 = add i32 %v315, 2
  %v347 = insertelement <8 x i32> poison, i32 %v346, i32 0
  %v348 = shufflevector <8 x i32> %v347, <8 x i32> poison, <8 x i32> zeroinitializer
  %v349 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v314
  %v350 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v348
  %v351 = and <8 x i1> %v349, %v350
  %v352 = select <8 x i1> %v351, <8 x float> %carry21, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v353 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v314
  %v354 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v348
  %v355 = and <8 x i1> %v353, %v354
  %v356 = select <8 x i1> %v355, <8 x float> %carry23, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v357 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v314
  %v358 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v348
  %v359 = and <8 x i1> %v357, %v358
  %v360 = select <8 x i1> %v359, <8 x float> %carry25, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v361 = add i32 %v315, 3
  %v362 = insertelement <8 x i32> poison, i32 %v361, i32 0
  %v363 = shufflevector <8 x i32> %v362, <8 x i32> poison, <8 x i32> zeroinitializer
  %v364 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v314
  %v365 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v363
  %v366 = and <8 x i1> %v364, %v365
  %v367 = select <8 x i1> %v366, <8 x float> %carry27, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v368 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v314
  %v369 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v363
  %v370 = and <8 x i1> %v368, %v369
  %v371 = select <8 x i1> %v370, <8 x float> %carry29, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v372 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v314
  %v373 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v363
  %v374 = and <8 x i1> %v372, %v373
  %v375 = select <8 x i1> %v374, <8 x float> %carry31, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  br label %masked310
masked310:
  %v376 = phi <8 x float> [ %carry9, %nomask311 ], [ %v322, %mask309 ]
  %v377 = phi <8 x float> [ %carry11, %nomask311 ], [ %v326, %mask309 ]
  %v378 = phi <8 x float> [ %carry13, %nomask311 ], [ %v330, %mask309 ]
  %v379 = phi <8 x float> [ %carry15, %nomask311 ], [ %v337, %mask309 ]
  %v380 = phi <8 x float> [ %carry17, %nomask311 ], [ %v341, %mask309 ]
  %v381 = phi <8 x float> [ %carry19, %nomask311 ], [ %v345, %mask309 ]
  %v382 = phi <8 x float> [ %carry21, %nomask311 ], [ %v352, %mask309 ]
  %v383 = phi <8 x float> [ %carry23, %nomask311 ], [ %v356, %mask309 ]
  %v384 = phi <8 x float> [ %carry25, %nomask311 ], [ %v360, %mask309 ]
  %v385 = phi <8 x float> [ %carry27, %nomask311 ], [ %v367, %mask309 ]
  %v386 = phi <8 x float> [ %carry29, %nomask311 ], [ %v371, %mask309 ]
  %v387 = phi <8 x float> [ %carry31, %nomask311 ], [ %v375, %mask309 ]
  %v388 = fmul float %scale, 0x3FF7154760000000
  %v389 = insertelement <8 x float> poison, float %v388, i32 0
  %v390 = shufflevector <8 x float> %v389, <8 x float> poison, <8 x i32> zeroinitializer
  %v391 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v376, <8 x float> %v377)
  %v392 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v391, <8 x float> %v378)
  %v393 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v392)
  %v394 = fmul float %v393, %scale
  %v395 = getelementptr inbounds float, ptr %state, i64 0
  %v396 = load float, ptr %v395, align 4
  %v397 = call float @llvm.maxnum.f32(float %v396, float %v394)
  %v398 = fcmp oeq float %v397, 0xFFF0000000000000
  %v399 = select i1 %v398, float 0x0000000000000000, float %v397
  %v400 = fmul float %v399, 0xBFF7154760000000
  %v401 = insertelement <8 x float> poison, float %v400, i32 0
  %v402 = shufflevector <8 x float> %v401, <8 x float> poison, <8 x i32> zeroinitializer
  %v403 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v376, <8 x float> %v390, <8 x float> %v402)
  %v404 = call <8 x float> @exp2_8(<8 x float> %v403)
  %v405 = getelementptr inbounds float, ptr %slot1, i64 0
  store <8 x float> %v404, ptr %v405, align 4
  %v406 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v377, <8 x float> %v390, <8 x float> %v402)
  %v407 = call <8 x float> @exp2_8(<8 x float> %v406)
  %v408 = getelementptr inbounds float, ptr %slot1, i64 8
  store <8 x float> %v407, ptr %v408, align 4
  %v409 = fadd <8 x float> %v404, %v407
  %v410 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v378, <8 x float> %v390, <8 x float> %v402)
  %v411 = call <8 x float> @exp2_8(<8 x float> %v410)
  %v412 = getelementptr inbounds float, ptr %slot1, i64 16
  store <8 x float> %v411, ptr %v412, align 4
  %v413 = fadd <8 x float> %v409, %v411
  %v414 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v413)
  %v415 = fsub float %v396, %v399
  %v416 = fmul float %v415, 0x3FF7154760000000
  %v417 = fcmp une float %v397, %v396
  %v418 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v379, <8 x float> %v380)
  %v419 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v418, <8 x float> %v381)
  %v420 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v419)
  %v421 = fmul float %v420, %scale
  %v422 = getelementptr inbounds float, ptr %state, i64 10
  %v423 = load float, ptr %v422, align 4
  %v424 = call float @llvm.maxnum.f32(float %v423, float %v421)
  %v425 = fcmp oeq float %v424, 0xFFF0000000000000
  %v426 = select i1 %v425, float 0x0000000000000000, float %v424
  %v427 = fmul float %v426, 0xBFF7154760000000
  %v428 = insertelement <8 x float> poison, float %v427, i32 0
  %v429 = shufflevector <8 x float> %v428, <8 x float> poison, <8 x i32> zeroinitializer
  %v430 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v379, <8 x float> %v390, <8 x float> %v429)
  %v431 = call <8 x float> @exp2_8(<8 x float> %v430)
  %v432 = getelementptr inbounds float, ptr %slot1, i64 24
  store <8 x float> %v431, ptr %v432, align 4
  %v433 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v380, <8 x float> %v390, <8 x float> %v429)
  %v434 = call <8 x float> @exp2_8(<8 x float> %v433)
  %v435 = getelementptr inbounds float, ptr %slot1, i64 32
  store <8 x float> %v434, ptr %v435, align 4
  %v436 = fadd <8 x float> %v431, %v434
  %v437 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v381, <8 x float> %v390, <8 x float> %v429)
  %v438 = call <8 x float> @exp2_8(<8 x float> %v437)
  %v439 = getelementptr inbounds float, ptr %slot1, i64 40
  store <8 x float> %v438, ptr %v439, align 4
  %v440 = fadd <8 x float> %v436, %v438
  %v441 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v440)
  %v442 = fsub float %v423, %v426
  %v443 = fmul float %v442, 0x3FF7154760000000
  %v444 = fcmp une float %v424, %v423
  %v445 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v382, <8 x float> %v383)
  %v446 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v445, <8 x float> %v384)
  %v447 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v446)
  %v448 = fmul float %v447, %scale
  %v449 = getelementptr inbounds float, ptr %state, i64 20
  %v450 = load float, ptr %v449, align 4
  %v451 = call float @llvm.maxnum.f32(float %v450, float %v448)
  %v452 = fcmp oeq float %v451, 0xFFF0000000000000
  %v453 = select i1 %v452, float 0x0000000000000000, float %v451
  %v454 = fmul float %v453, 0xBFF7154760000000
  %v455 = insertelement <8 x float> poison, float %v454, i32 0
  %v456 = shufflevector <8 x float> %v455, <8 x float> poison, <8 x i32> zeroinitializer
  %v457 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v382, <8 x float> %v390, <8 x float> %v456)
  %v458 = call <8 x float> @exp2_8(<8 x float> %v457)
  %v459 = getelementptr inbounds float, ptr %slot1, i64 48
  store <8 x float> %v458, ptr %v459, align 4
  %v460 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v383, <8 x float> %v390, <8 x float> %v456)
  %v461 = call <8 x float> @exp2_8(<8 x float> %v460)
  %v462 = getelementptr inbounds float, ptr %slot1, i64 56
  store <8 x float> %v461, ptr %v462, align 4
  %v463 = fadd <8 x float> %v458, %v461
  %v464 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v384, <8 x float> %v390, <8 x float> %v456)
  %v465 = call <8 x float> @exp2_8(<8 x float> %v464)
  %v466 = getelementptr inbounds float, ptr %slot1, i64 64
  store <8 x float> %v465, ptr %v466, align 4
  %v467 = fadd <8 x float> %v463, %v465
  %v468 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v467)
  %v469 = fsub float %v450, %v453
  %v470 = fmul float %v469, 0x3FF7154760000000
  %v471 = fcmp une float %v451, %v450
  %v472 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v385, <8 x float> %v386)
  %v473 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v472, <8 x float> %v387)
  %v474 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v473)
  %v475 = fmul float %v474, %scale
  %v476 = getelementptr inbounds float, ptr %state, i64 30
  %v477 = load float, ptr %v476, align 4
  %v478 = call float @llvm.maxnum.f32(float %v477, float %v475)
  %v479 = fcmp oeq float %v478, 0xFFF0000000000000
  %v480 = select i1 %v479, float 0x0000000000000000, float %v478
  %v481 = fmul float %v480, 0xBFF7154760000000
  %v482 = insertelement <8 x float> poison, float %v481, i32 0
  %v483 = shufflevector <8 x float> %v482, <8 x float> poison, <8 x i32> zeroinitializer
  %v484 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v385, <8 x float> %v390, <8 x float> %v483)
  %v485 = call <8 x float> @exp2_8(<8 x float> %v484)
  %v486 = getelementptr inbounds float, ptr %slot1, i64 72
  store <8 x float> %v485, ptr %v486, align 4
  %v487 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v386, <8 x float> %v390, <8 x float> %v483)
  %v488 = call <8 x float> @exp2_8(<8 x float> %v487)
  %v489 = getelementptr inbounds float, ptr %slot1, i64 80
  store <8 x float> %v488, ptr %v489, align 4
  %v490 = fadd <8 x float> %v485, %v488
  %v491 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v387, <8 x float> %v390, <8 x float> %v483)
  %v492 = call <8 x float> @exp2_8(<8 x float> %v491)
  %v493 = getelementptr inbounds float, ptr %slot1, i64 88
  store <8 x float> %v492, ptr %v493, align 4
  %v494 = fadd <8 x float> %v490, %v492
  %v495 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v494)
  %v496 = fsub float %v477, %v480
  %v497 = fmul float %v496, 0x3FF7154760000000
  %v498 = fcmp une float %v478, %v477
  %v499 = insertelement <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, float %v416, i32 0
  %v500 = insertelement <8 x float> %v499, float %v443, i32 1
  %v501 = insertelement <8 x float> %v500, float %v470, i32 2
  %v502 = insertelement <8 x float> %v501, float %v497, i32 3
  %v503 = call <8 x float> @exp2_8(<8 x float> %v502)
  %v504 = extractelement <8 x float> %v503, i32 0
  %v505 = getelementptr inbounds float, ptr %state, i64 1
  %v506 = load float, ptr %v505, align 4
  %v507 = call float @llvm.fma.f32(float %v506, float %v504, float %v414)
  store float %v507, ptr %v505, align 4
  %v508 = getelementptr inbounds float, ptr %state, i64 0
  store float %v397, ptr %v508, align 4
  %v509 = insertelement <8 x float> poison, float %v504, i32 0
  %v510 = shufflevector <8 x float> %v509, <8 x float> poison, <8 x i32> zeroinitializer
  %v511 = or i1 false, %v417
  %v512 = extractelement <8 x float> %v503, i32 1
  %v513 = getelementptr inbounds float, ptr %state, i64 11
  %v514 = load float, ptr %v513, align 4
  %v515 = call float @llvm.fma.f32(float %v514, float %v512, float %v441)
  store float %v515, ptr %v513, align 4
  %v516 = getelementptr inbounds float, ptr %state, i64 10
  store float %v424, ptr %v516, align 4
  %v517 = insertelement <8 x float> poison, float %v512, i32 0
  %v518 = shufflevector <8 x float> %v517, <8 x float> poison, <8 x i32> zeroinitializer
  %v519 = or i1 %v511, %v444
  %v520 = extractelement <8 x float> %v503, i32 2
  %v521 = getelementptr inbounds float, ptr %state, i64 21
  %v522 = load float, ptr %v521, align 4
  %v523 = call float @llvm.fma.f32(float %v522, float %v520, float %v468)
  store float %v523, ptr %v521, align 4
  %v524 = getelementptr inbounds float, ptr %state, i64 20
  store float %v451, ptr %v524, align 4
  %v525 = insertelement <8 x float> poison, float %v520, i32 0
  %v526 = shufflevector <8 x float> %v525, <8 x float> poison, <8 x i32> zeroinitializer
  %v527 = or i1 %v519, %v471
  %v528 = extractelement <8 x float> %v503, i32 3
  %v529 = getelementptr inbounds float, ptr %state, i64 31
  %v530 = load float, ptr %v529, align 4
  %v531 = call float @llvm.fma.f32(float %v530, float %v528, float %v495)
  store float %v531, ptr %v529, align 4
  %v532 = getelementptr inbounds float, ptr %state, i64 30
  store float %v478, ptr %v532, align 4
  %v533 = insertelement <8 x float> poison, float %v528, i32 0
  %v534 = shufflevector <8 x float> %v533, <8 x float> poison, <8 x i32> zeroinitializer
  %v535 = or i1 %v527, %v498
  %v536 = sdiv i64 %cols, 4
  %v537 = mul i64 %v536, 4
  br i1 %v535, label %pv_scaled538, label %pv_plain539
pv_scaled538:
  %v541 = getelementptr inbounds float, ptr %state, i64 2
  %v542 = load <8 x float>, ptr %v541, align 4
  %v543 = fmul <8 x float> %v542, %v510
  %v544 = getelementptr inbounds float, ptr %state, i64 12
  %v545 = load <8 x float>, ptr %v544, align 4
  %v546 = fmul <8 x float> %v545, %v518
  %v547 = getelementptr inbounds float, ptr %state, i64 22
  %v548 = load <8 x float>, ptr %v547, align 4
  %v549 = fmul <8 x float> %v548, %v526
  %v550 = getelementptr inbounds float, ptr %state, i64 32
  %v551 = load <8 x float>, ptr %v550, align 4
  %v552 = fmul <8 x float> %v551, %v534
  br label %pre553
pre553:
  br label %head554
head554:
  %i558 = phi i64 [ 0, %pre553 ], [ %inext559, %latch556 ]
  %carry560 = phi <8 x float> [ %v543, %pre553 ], [ %carried561, %latch556 ]
  %carry562 = phi <8 x float> [ %v546, %pre553 ], [ %carried563, %latch556 ]
  %carry564 = phi <8 x float> [ %v549, %pre553 ], [ %carried565, %latch556 ]
  %carry566 = phi <8 x float> [ %v552, %pre553 ], [ %carried567, %latch556 ]
  %v568 = icmp slt i64 %i558, %v537
  br i1 %v568, label %body555, label %done557
body555:
  %v569 = add i64 %i558, 0
  %v570 = mul i64 %v569, 8
  %v571 = add i64 %v570, 0
  %v572 = getelementptr inbounds float, ptr %v, i64 %v571
  %v573 = load <8 x float>, ptr %v572, align 4
  %v574 = add i64 %v569, 0
  %v575 = getelementptr inbounds float, ptr %slot1, i64 %v574
  %v576 = load float, ptr %v575, align 4
  %v577 = insertelement <8 x float> poison, float %v576, i32 0
  %v578 = shufflevector <8 x float> %v577, <8 x float> poison, <8 x i32> zeroinitializer
  %v579 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v578, <8 x float> %v573, <8 x float> %carry560)
  %v580 = add i64 %v569, 24
  %v581 = getelementptr inbounds float, ptr %slot1, i64 %v580
  %v582 = load float, ptr %v581, align 4
  %v583 = insertelement <8 x float> poison, float %v582, i32 0
  %v584 = shufflevector <8 x float> %v583, <8 x float> poison, <8 x i32> zeroinitializer
  %v585 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v584, <8 x float> %v573, <8 x float> %carry562)
  %v586 = add i64 %v569, 48
  %v587 = getelementptr inbounds float, ptr %slot1, i64 %v586
  %v588 = load float, ptr %v587, align 4
  %v589 = insertelement <8 x float> poison, float %v588, i32 0
  %v590 = shufflevector <8 x float> %v589, <8 x float> poison, <8 x i32> zeroinitializer
  %v591 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v590, <8 x float> %v573, <8 x float> %carry564)
  %v592 = add i64 %v569, 72
  %v593 = getelementptr inbounds float, ptr %slot1, i64 %v592
  %v594 = load float, ptr %v593, align 4
  %v595 = insertelement <8 x float> poison, float %v594, i32 0
  %v596 = shufflevector <8 x float> %v595, <8 x float> poison, <8 x i32> zeroinitializer
  %v597 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v596, <8 x float> %v573, <8 x float> %carry566)
  %v598 = add i64 %i558, 1
  %v599 = mul i64 %v598, 8
  %v600 = add i64 %v599, 0
  %v601 = getelementptr inbounds float, ptr %v, i64 %v600
  %v602 = load <8 x float>, ptr %v601, align 4
  %v603 = add i64 %v598, 0
  %v604 = getelementptr inbounds float, ptr %slot1, i64 %v603
  %v605 = load float, ptr %v604, align 4
  %v606 = insertelement <8 x float> poison, float %v605, i32 0
  %v607 = shufflevector <8 x float> %v606, <8 x float> poison, <8 x i32> zeroinitializer
  %v608 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v607, <8 x float> %v602, <8 x float> %v579)
  %v609 = add i64 %v598, 24
  %v610 = getelementptr inbounds float, ptr %slot1, i64 %v609
  %v611 = load float, ptr %v610, align 4
  %v612 = insertelement <8 x float> poison, float %v611, i32 0
  %v613 = shufflevector <8 x float> %v612, <8 x float> poison, <8 x i32> zeroinitializer
  %v614 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v613, <8 x float> %v602, <8 x float> %v585)
  %v615 = add i64 %v598, 48
  %v616 = getelementptr inbounds float, ptr %slot1, i64 %v615
  %v617 = load float, ptr %v616, align 4
  %v618 = insertelement <8 x float> poison, float %v617, i32 0
  %v619 = shufflevector <8 x float> %v618, <8 x float> poison, <8 x i32> zeroinitializer
  %v620 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v619, <8 x float> %v602, <8 x float> %v591)
  %v621 = add i64 %v598, 72
  %v622 = getelementptr inbounds float, ptr %slot1, i64 %v621
  %v623 = load float, ptr %v622, align 4
  %v624 = insertelement <8 x float> poison, float %v623, i32 0
  %v625 = shufflevector <8 x float> %v624, <8 x float> poison, <8 x i32> zeroinitializer
  %v626 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v625, <8 x float> %v602, <8 x float> %v597)
  %v627 = add i64 %i558, 2
  %v628 = mul i64 %v627, 8
  %v629 = add i64 %v628, 0
  %v630 = getelementptr inbounds float, ptr %v, i64 %v629
  %v631 = load <8 x float>, ptr %v630, align 4
  %v632 = add i64 %v627, 0
  %v633 = getelementptr inbounds float, ptr %slot1, i64 %v632
  %v634 = load float, ptr %v633, align 4
  %v635 = insertelement <8 x float> poison, float %v634, i32 0
  %v636 = shufflevector <8 x float> %v635, <8 x float> poison, <8 x i32> zeroinitializer
  %v637 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v636, <8 x float> %v631, <8 x float> %v608)
  %v638 = add i64 %v627, 24
  %v639 = getelementptr inbounds float, ptr %slot1, i64 %v638
  %v640 = load float, ptr %v639, align 4
  %v641 = insertelement <8 x float> poison, float %v640, i32 0
  %v642 = shufflevector <8 x float> %v641, <8 x float> poison, <8 x i32> zeroinitializer
  %v643 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v642, <8 x float> %v631, <8 x float> %v614)
  %v644 = add i64 %v627, 48
  %v645 = getelementptr inbounds float, ptr %slot1, i64 %v644
  %v646 = load float, ptr %v645, align 4
  %v647 = insertelement <8 x float> poison, float %v646, i32 0
  %v648 = shufflevector <8 x float> %v647, <8 x float> poison, <8 x i32> zeroinitializer
  %v649 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v648, <8 x float> %v631, <8 x float> %v620)
  %v650 = add i64 %v627, 72
  %v651 = getelementptr inbounds float, ptr %slot1, i64 %v650
  %v652 = load float, ptr %v651, align 4
  %v653 = insertelement <8 x float> poison, float %v652, i32 0
  %v654 = shufflevector <8 x float> %v653, <8 x float> poison, <8 x i32> zeroinitializer
  %v655 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v654, <8 x float> %v631, <8 x float> %v626)
  %v656 = add i64 %i558, 3
  %v657 = mul i64 %v656, 8
  %v658 = add i64 %v657, 0
  %v659 = getelementptr inbounds float, ptr %v, i64 %v658
  %v660 = load <8 x float>, ptr %v659, align 4
  %v661 = add i64 %v656, 0
  %v662 = getelementptr inbounds float, ptr %slot1, i64 %v661
  %v663 = load float, ptr %v662, align 4
  %v664 = insertelement <8 x float> poison, float %v663, i32 0
  %v665 = shufflevector <8 x float> %v664, <8 x float> poison, <8 x i32> zeroinitializer
  %v666 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v665, <8 x float> %v660, <8 x float> %v637)
  %v667 = add i64 %v656, 24
  %v668 = getelementptr inbounds float, ptr %slot1, i64 %v667
  %v669 = load float, ptr %v668, align 4
  %v670 = insertelement <8 x float> poison, float %v669, i32 0
  %v671 = shufflevector <8 x float> %v670, <8 x float> poison, <8 x i32> zeroinitializer
  %v672 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v671, <8 x float> %v660, <8 x float> %v643)
  %v673 = add i64 %v656, 48
  %v674 = getelementptr inbounds float, ptr %slot1, i64 %v673
  %v675 = load float, ptr %v674, align 4
  %v676 = insertelement <8 x float> poison, float %v675, i32 0
  %v677 = shufflevector <8 x float> %v676, <8 x float> poison, <8 x i32> zeroinitializer
  %v678 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v677, <8 x float> %v660, <8 x float> %v649)
  %v679 = add i64 %v656, 72
  %v680 = getelementptr inbounds float, ptr %slot1, i64 %v679
  %v681 = load float, ptr %v680, align 4
  %v682 = insertelement <8 x float> poison, float %v681, i32 0
  %v683 = shufflevector <8 x float> %v682, <8 x float> poison, <8 x i32> zeroinitializer
  %v684 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v683, <8 x float> %v660, <8 x float> %v655)
  br label %latch556
latch556:
  %carried561 = select i1 true, <8 x float> %v666, <8 x float> %v666
  %carried563 = select i1 true, <8 x float> %v672, <8 x float> %v672
  %carried565 = select i1 true, <8 x float> %v678, <8 x float> %v678
  %carried567 = select i1 true, <8 x float> %v684, <8 x float> %v684
  %inext559 = add i64 %i558, 4
  br label %head554
done557:
  br label %pre685
pre685:
  br label %head686
head686:
  %i690 = phi i64 [ %v537, %pre685 ], [ %inext691, %latch688 ]
  %carry692 = phi <8 x float> [ %carry560, %pre685 ], [ %carried693, %latch688 ]
  %carry694 = phi <8 x float> [ %carry562, %pre685 ], [ %carried695, %latch688 ]
  %carry696 = phi <8 x float> [ %carry564, %pre685 ], [ %carried697, %latch688 ]
  %carry698 = phi <8 x float> [ %carry566, %pre685 ], [ %carried699, %latch688 ]
  %v700 = icmp slt i64 %i690, %cols
  br i1 %v700, label %body687, label %done689
body687:
  %v701 = mul i64 %i690, 8
  %v702 = add i64 %v701, 0
  %v703 = getelementptr inbounds float, ptr %v, i64 %v702
  %v704 = load <8 x float>, ptr %v703, align 4
  %v705 = add i64 %i690, 0
  %v706 = getelementptr inbounds float, ptr %slot1, i64 %v705
  %v707 = load float, ptr %v706, align 4
  %v708 = insertelement <8 x float> poison, float %v707, i32 0
  %v709 = shufflevector <8 x float> %v708, <8 x float> poison, <8 x i32> zeroinitializer
  %v710 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v709, <8 x float> %v704, <8 x float> %carry692)
  %v711 = add i64 %i690, 24
  %v712 = getelementptr inbounds float, ptr %slot1, i64 %v711
  %v713 = load float, ptr %v712, align 4
  %v714 = insertelement <8 x float> poison, float %v713, i32 0
  %v715 = shufflevector <8 x float> %v714, <8 x float> poison, <8 x i32> zeroinitializer
  %v716 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v715, <8 x float> %v704, <8 x float> %carry694)
  %v717 = add i64 %i690, 48
  %v718 = getelementptr inbounds float, ptr %slot1, i64 %v717
  %v719 = load float, ptr %v718, align 4
  %v720 = insertelement <8 x float> poison, float %v719, i32 0
  %v721 = shufflevector <8 x float> %v720, <8 x float> poison, <8 x i32> zeroinitializer
  %v722 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v721, <8 x float> %v704, <8 x float> %carry696)
  %v723 = add i64 %i690, 72
  %v724 = getelementptr inbounds float, ptr %slot1, i64 %v723
  %v725 = load float, ptr %v724, align 4
  %v726 = insertelement <8 x float> poison, float %v725, i32 0
  %v727 = shufflevector <8 x float> %v726, <8 x float> poison, <8 x i32> zeroinitializer
  %v728 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v727, <8 x float> %v704, <8 x float> %carry698)
  br label %latch688
latch688:
  %carried693 = select i1 true, <8 x float> %v710, <8 x float> %v710
  %carried695 = select i1 true, <8 x float> %v716, <8 x float> %v716
  %carried697 = select i1 true, <8 x float> %v722, <8 x float> %v722
  %carried699 = select i1 true, <8 x float> %v728, <8 x float> %v728
  %inext691 = add i64 %i690, 1
  br label %head686
done689:
  %v729 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry692, ptr %v729, align 4
  %v730 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry694, ptr %v730, align 4
  %v731 = getelementptr inbounds float, ptr %state, i64 22
  store <8 x float> %carry696, ptr %v731, align 4
  %v732 = getelementptr inbounds float, ptr %state, i64 32
  store <8 x float> %carry698, ptr %v732, align 4
  br label %pv_done540
pv_plain539:
  %v733 = getelementptr inbounds float, ptr %state, i64 2
  %v734 = load <8 x float>, ptr %v733, align 4
  %v735 = getelementptr inbounds float, ptr %state, i64 12
  %v736 = load <8 x float>, ptr %v735, align 4
  %v737 = getelementptr inbounds float, ptr %state, i64 22
  %v738 = load <8 x float>, ptr %v737, align 4
  %v739 = getelementptr inbounds float, ptr %state, i64 32
  %v740 = load <8 x float>, ptr %v739, align 4
  br label %pre741
pre741:
  br label %head742
head742:
  %i746 = phi i64 [ 0, %pre741 ], [ %inext747, %latch744 ]
  %carry748 = phi <8 x float> [ %v734, %pre741 ], [ %carried749, %latch744 ]
  %carry750 = phi <8 x float> [ %v736, %pre741 ], [ %carried751, %latch744 ]
  %carry752 = phi <8 x float> [ %v738, %pre741 ], [ %carried753, %latch744 ]
  %carry754 = phi <8 x float> [ %v740, %pre741 ], [ %carried755, %latch744 ]
  %v756 = icmp slt i64 %i746, %v537
  br i1 %v756, label %body743, label %done745
body743:
  %v757 = add i64 %i746, 0
  %v758 = mul i64 %v757, 8
  %v759 = add i64 %v758, 0
  %v760 = getelementptr inbounds float, ptr %v, i64 %v759
  %v761 = load <8 x float>, ptr %v760, align 4
  %v762 = add i64 %v757, 0
  %v763 = getelementptr inbounds float, ptr %slot1, i64 %v762
  %v764 = load float, ptr %v763, align 4
  %v765 = insertelement <8 x float> poison, float %v764, i32 0
  %v766 = shufflevector <8 x float> %v765, <8 x float> poison, <8 x i32> zeroinitializer
  %v767 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v766, <8 x float> %v761, <8 x float> %carry748)
  %v768 = add i64 %v757, 24
  %v769 = getelementptr inbounds float, ptr %slot1, i64 %v768
  %v770 = load float, ptr %v769, align 4
  %v771 = insertelement <8 x float> poison, float %v770, i32 0
  %v772 = shufflevector <8 x float> %v771, <8 x float> poison, <8 x i32> zeroinitializer
  %v773 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v772, <8 x float> %v761, <8 x float> %carry750)
  %v774 = add i64 %v757, 48
  %v775 = getelementptr inbounds float, ptr %slot1, i64 %v774
  %v776 = load float, ptr %v775, align 4
  %v777 = insertelement <8 x float> poison, float %v776, i32 0
  %v778 = shufflevector <8 x float> %v777, <8 x float> poison, <8 x i32> zeroinitializer
  %v779 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v778, <8 x float> %v761, <8 x float> %carry752)
  %v780 = add i64 %v757, 72
  %v781 = getelementptr inbounds float, ptr %slot1, i64 %v780
  %v782 = load float, ptr %v781, align 4
  %v783 = insertelement <8 x float> poison, float %v782, i32 0
  %v784 = shufflevector <8 x float> %v783, <8 x float> poison, <8 x i32> zeroinitializer
  %v785 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v784, <8 x float> %v761, <8 x float> %carry754)
  %v786 = add i64 %i746, 1
  %v787 = mul i64 %v786, 8
  %v788 = add i64 %v787, 0
  %v789 = getelementptr inbounds float, ptr %v, i64 %v788
  %v790 = load <8 x float>, ptr %v789, align 4
  %v791 = add i64 %v786, 0
  %v792 = getelementptr inbounds float, ptr %slot1, i64 %v791
  %v793 = load float, ptr %v792, align 4
  %v794 = insertelement <8 x float> poison, float %v793, i32 0
  %v795 = shufflevector <8 x float> %v794, <8 x float> poison, <8 x i32> zeroinitializer
  %v796 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v795, <8 x float> %v790, <8 x float> %v767)
  %v797 = add i64 %v786, 24
  %v798 = getelementptr inbounds float, ptr %slot1, i64 %v797
  %v799 = load float, ptr %v798, align 4
  %v800 = insertelement <8 x float> poison, float %v799, i32 0
  %v801 = shufflevector <8 x float> %v800, <8 x float> poison, <8 x i32> zeroinitializer
  %v802 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v801, <8 x float> %v790, <8 x float> %v773)
  %v803 = add i64 %v786, 48
  %v804 = getelementptr inbounds float, ptr %slot1, i64 %v803
  %v805 = load float, ptr %v804, align 4
  %v806 = insertelement <8 x float> poison, float %v805, i32 0
  %v807 = shufflevector <8 x float> %v806, <8 x float> poison, <8 x i32> zeroinitializer
  %v808 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v807, <8 x float> %v790, <8 x float> %v779)
  %v809 = add i64 %v786, 72
  %v810 = getelementptr inbounds float, ptr %slot1, i64 %v809
  %v811 = load float, ptr %v810, align 4
  %v812 = insertelement <8 x float> poison, float %v811, i32 0
  %v813 = shufflevector <8 x float> %v812, <8 x float> poison, <8 x i32> zeroinitializer
  %v814 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v813, <8 x float> %v790, <8 x float> %v785)
  %v815 = add i64 %i746, 2
  %v816 = mul i64 %v815, 8
  %v817 = add i64 %v816, 0
  %v818 = getelementptr inbounds float, ptr %v, i64 %v817
  %v819 = load <8 x float>, ptr %v818, align 4
  %v820 = add i64 %v815, 0
  %v821 = getelementptr inbounds float, ptr %slot1, i64 %v820
  %v822 = load float, ptr %v821, align 4
  %v823 = insertelement <8 x float> poison, float %v822, i32 0
  %v824 = shufflevector <8 x float> %v823, <8 x float> poison, <8 x i32> zeroinitializer
  %v825 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v824, <8 x float> %v819, <8 x float> %v796)
  %v826 = add i64 %v815, 24
  %v827 = getelementptr inbounds float, ptr %slot1, i64 %v826
  %v828 = load float, ptr %v827, align 4
  %v829 = insertelement <8 x float> poison, float %v828, i32 0
  %v830 = shufflevector <8 x float> %v829, <8 x float> poison, <8 x i32> zeroinitializer
  %v831 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v830, <8 x float> %v819, <8 x float> %v802)
  %v832 = add i64 %v815, 48
  %v833 = getelementptr inbounds float, ptr %slot1, i64 %v832
  %v834 = load float, ptr %v833, align 4
  %v835 = insertelement <8 x float> poison, float %v834, i32 0
  %v836 = shufflevector <8 x float> %v835, <8 x float> poison, <8 x i32> zeroinitializer
  %v837 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v836, <8 x float> %v819, <8 x float> %v808)
  %v838 = add i64 %v815, 72
  %v839 = getelementptr inbounds float, ptr %slot1, i64 %v838
  %v840 = load float, ptr %v839, align 4
  %v841 = insertelement <8 x float> poison, float %v840, i32 0
  %v842 = shufflevector <8 x float> %v841, <8 x float> poison, <8 x i32> zeroinitializer
  %v843 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v842, <8 x float> %v819, <8 x float> %v814)
  %v844 = add i64 %i746, 3
  %v845 = mul i64 %v844, 8
  %v846 = add i64 %v845, 0
  %v847 = getelementptr inbounds float, ptr %v, i64 %v846
  %v848 = load <8 x float>, ptr %v847, align 4
  %v849 = add i64 %v844, 0
  %v850 = getelementptr inbounds float, ptr %slot1, i64 %v849
  %v851 = load float, ptr %v850, align 4
  %v852 = insertelement <8 x float> poison, float %v851, i32 0
  %v853 = shufflevector <8 x float> %v852, <8 x float> poison, <8 x i32> zeroinitializer
  %v854 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v853, <8 x float> %v848, <8 x float> %v825)
  %v855 = add i64 %v844, 24
  %v856 = getelementptr inbounds float, ptr %slot1, i64 %v855
  %v857 = load float, ptr %v856, align 4
  %v858 = insertelement <8 x float> poison, float %v857, i32 0
  %v859 = shufflevector <8 x float> %v858, <8 x float> poison, <8 x i32> zeroinitializer
  %v860 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v859, <8 x float> %v848, <8 x float> %v831)
  %v861 = add i64 %v844, 48
  %v862 = getelementptr inbounds float, ptr %slot1, i64 %v861
  %v863 = load float, ptr %v862, align 4
  %v864 = insertelement <8 x float> poison, float %v863, i32 0
  %v865 = shufflevector <8 x float> %v864, <8 x float> poison, <8 x i32> zeroinitializer
  %v866 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v865, <8 x float> %v848, <8 x float> %v837)
  %v867 = add i64 %v844, 72
  %v868 = getelementptr inbounds float, ptr %slot1, i64 %v867
  %v869 = load float, ptr %v868, align 4
  %v870 = insertelement <8 x float> poison, float %v869, i32 0
  %v871 = shufflevector <8 x float> %v870, <8 x float> poison, <8 x i32> zeroinitializer
  %v872 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v871, <8 x float> %v848, <8 x float> %v843)
  br label %latch744
latch744:
  %carried749 = select i1 true, <8 x float> %v854, <8 x float> %v854
  %carried751 = select i1 true, <8 x float> %v860, <8 x float> %v860
  %carried753 = select i1 true, <8 x float> %v866, <8 x float> %v866
  %carried755 = select i1 true, <8 x float> %v872, <8 x float> %v872
  %inext747 = add i64 %i746, 4
  br label %head742
done745:
  br label %pre873
pre873:
  br label %head874
head874:
  %i878 = phi i64 [ %v537, %pre873 ], [ %inext879, %latch876 ]
  %carry880 = phi <8 x float> [ %carry748, %pre873 ], [ %carried881, %latch876 ]
  %carry882 = phi <8 x float> [ %carry750, %pre873 ], [ %carried883, %latch876 ]
  %carry884 = phi <8 x float> [ %carry752, %pre873 ], [ %carried885, %latch876 ]
  %carry886 = phi <8 x float> [ %carry754, %pre873 ], [ %carried887, %latch876 ]
  %v888 = icmp slt i64 %i878, %cols
  br i1 %v888, label %body875, label %done877
body875:
  %v889 = mul i64 %i878, 8
  %v890 = add i64 %v889, 0
  %v891 = getelementptr inbounds float, ptr %v, i64 %v890
  %v892 = load <8 x float>, ptr %v891, align 4
  %v893 = add i64 %i878, 0
  %v894 = getelementptr inbounds float, ptr %slot1, i64 %v893
  %v895 = load float, ptr %v894, align 4
  %v896 = insertelement <8 x float> poison, float %v895, i32 0
  %v897 = shufflevector <8 x float> %v896, <8 x float> poison, <8 x i32> zeroinitializer
  %v898 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v897, <8 x float> %v892, <8 x float> %carry880)
  %v899 = add i64 %i878, 24
  %v900 = getelementptr inbounds float, ptr %slot1, i64 %v899
  %v901 = load float, ptr %v900, align 4
  %v902 = insertelement <8 x float> poison, float %v901, i32 0
  %v903 = shufflevector <8 x float> %v902, <8 x float> poison, <8 x i32> zeroinitializer
  %v904 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v903, <8 x float> %v892, <8 x float> %carry882)
  %v905 = add i64 %i878, 48
  %v906 = getelementptr inbounds float, ptr %slot1, i64 %v905
  %v907 = load float, ptr %v906, align 4
  %v908 = insertelement <8 x float> poison, float %v907, i32 0
  %v909 = shufflevector <8 x float> %v908, <8 x float> poison, <8 x i32> zeroinitializer
  %v910 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v909, <8 x float> %v892, <8 x float> %carry884)
  %v911 = add i64 %i878, 72
  %v912 = getelementptr inbounds float, ptr %slot1, i64 %v911
  %v913 = load float, ptr %v912, align 4
  %v914 = insertelement <8 x float> poison, float %v913, i32 0
  %v915 = shufflevector <8 x float> %v914, <8 x float> poison, <8 x i32> zeroinitializer
  %v916 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v915, <8 x float> %v892, <8 x float> %carry886)
  br label %latch876
latch876:
  %carried881 = select i1 true, <8 x float> %v898, <8 x float> %v898
  %carried883 = select i1 true, <8 x float> %v904, <8 x float> %v904
  %carried885 = select i1 true, <8 x float> %v910, <8 x float> %v910
  %carried887 = select i1 true, <8 x float> %v916, <8 x float> %v916
  %inext879 = add i64 %i878, 1
  br label %head874
done877:
  %v917 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry880, ptr %v917, align 4
  %v918 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry882, ptr %v918, align 4
  %v919 = getelementptr inbounds float, ptr %state, i64 22
  store <8 x float> %carry884, ptr %v919, align 4
  %v920 = getelementptr inbounds float, ptr %state, i64 32
  store <8 x float> %carry886, ptr %v920, align 4
  br label %pv_done540
pv_done540:
  ret void
}

define internal void @tile2(ptr noalias %q, ptr noalias %state, ptr noalias %kt, ptr noalias %v, i64 %cols, i64 %diff, i1 %masked, float %scale) "target-cpu"="x86-64-v3" "target-features"="+avx2,+fma" nounwind {
entry:
  %slot1 = alloca [48 x float], align 32
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
  %v21 = icmp slt i64 %i7, 8
  br i1 %v21, label %body4, label %done6
body4:
  %v22 = mul i64 %i7, 24
  %v23 = getelementptr inbounds float, ptr %kt, i64 %v22
  %v24 = getelementptr inbounds float, ptr %q, i64 %i7
  %v25 = getelementptr inbounds float, ptr %v23, i64 0
  %v26 = load <8 x float>, ptr %v25, align 4
  %v27 = getelementptr inbounds float, ptr %v23, i64 8
  %v28 = load <8 x float>, ptr %v27, align 4
  %v29 = getelementptr inbounds float, ptr %v23, i64 16
  %v30 = load <8 x float>, ptr %v29, align 4
  %v31 = getelementptr inbounds float, ptr %v24, i64 0
  %v32 = load float, ptr %v31, align 4
  %v33 = insertelement <8 x float> poison, float %v32, i32 0
  %v34 = shufflevector <8 x float> %v33, <8 x float> poison, <8 x i32> zeroinitializer
  %v35 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v34, <8 x float> %v26, <8 x float> %carry9)
  %v36 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v34, <8 x float> %v28, <8 x float> %carry11)
  %v37 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v34, <8 x float> %v30, <8 x float> %carry13)
  %v38 = getelementptr inbounds float, ptr %v24, i64 8
  %v39 = load float, ptr %v38, align 4
  %v40 = insertelement <8 x float> poison, float %v39, i32 0
  %v41 = shufflevector <8 x float> %v40, <8 x float> poison, <8 x i32> zeroinitializer
  %v42 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v41, <8 x float> %v26, <8 x float> %carry15)
  %v43 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v41, <8 x float> %v28, <8 x float> %carry17)
  %v44 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v41, <8 x float> %v30, <8 x float> %carry19)
  %v45 = getelementptr inbounds float, ptr %v23, i64 24
  %v46 = load <8 x float>, ptr %v45, align 4
  %v47 = getelementptr inbounds float, ptr %v23, i64 32
  %v48 = load <8 x float>, ptr %v47, align 4
  %v49 = getelementptr inbounds float, ptr %v23, i64 40
  %v50 = load <8 x float>, ptr %v49, align 4
  %v51 = getelementptr inbounds float, ptr %v24, i64 1
  %v52 = load float, ptr %v51, align 4
  %v53 = insertelement <8 x float> poison, float %v52, i32 0
  %v54 = shufflevector <8 x float> %v53, <8 x float> poison, <8 x i32> zeroinitializer
  %v55 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v54, <8 x float> %v46, <8 x float> %v35)
  %v56 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v54, <8 x float> %v48, <8 x float> %v36)
  %v57 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v54, <8 x float> %v50, <8 x float> %v37)
  %v58 = getelementptr inbounds float, ptr %v24, i64 9
  %v59 = load float, ptr %v58, align 4
  %v60 = insertelement <8 x float> poison, float %v59, i32 0
  %v61 = shufflevector <8 x float> %v60, <8 x float> poison, <8 x i32> zeroinitializer
  %v62 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v61, <8 x float> %v46, <8 x float> %v42)
  %v63 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v61, <8 x float> %v48, <8 x float> %v43)
  %v64 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v61, <8 x float> %v50, <8 x float> %v44)
  %v65 = getelementptr inbounds float, ptr %v23, i64 48
  %v66 = load <8 x float>, ptr %v65, align 4
  %v67 = getelementptr inbounds float, ptr %v23, i64 56
  %v68 = load <8 x float>, ptr %v67, align 4
  %v69 = getelementptr inbounds float, ptr %v23, i64 64
  %v70 = load <8 x float>, ptr %v69, align 4
  %v71 = getelementptr inbounds float, ptr %v24, i64 2
  %v72 = load float, ptr %v71, align 4
  %v73 = insertelement <8 x float> poison, float %v72, i32 0
  %v74 = shufflevector <8 x float> %v73, <8 x float> poison, <8 x i32> zeroinitializer
  %v75 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v74, <8 x float> %v66, <8 x float> %v55)
  %v76 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v74, <8 x float> %v68, <8 x float> %v56)
  %v77 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v74, <8 x float> %v70, <8 x float> %v57)
  %v78 = getelementptr inbounds float, ptr %v24, i64 10
  %v79 = load float, ptr %v78, align 4
  %v80 = insertelement <8 x float> poison, float %v79, i32 0
  %v81 = shufflevector <8 x float> %v80, <8 x float> poison, <8 x i32> zeroinitializer
  %v82 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v81, <8 x float> %v66, <8 x float> %v62)
  %v83 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v81, <8 x float> %v68, <8 x float> %v63)
  %v84 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v81, <8 x float> %v70, <8 x float> %v64)
  %v85 = getelementptr inbounds float, ptr %v23, i64 72
  %v86 = load <8 x float>, ptr %v85, align 4
  %v87 = getelementptr inbounds float, ptr %v23, i64 80
  %v88 = load <8 x float>, ptr %v87, align 4
  %v89 = getelementptr inbounds float, ptr %v23, i64 88
  %v90 = load <8 x float>, ptr %v89, align 4
  %v91 = getelementptr inbounds float, ptr %v24, i64 3
  %v92 = load float, ptr %v91, align 4
  %v93 = insertelement <8 x float> poison, float %v92, i32 0
  %v94 = shufflevector <8 x float> %v93, <8 x float> poison, <8 x i32> zeroinitializer
  %v95 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v94, <8 x float> %v86, <8 x float> %v75)
  %v96 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v94, <8 x float> %v88, <8 x float> %v76)
  %v97 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v94, <8 x float> %v90, <8 x float> %v77)
  %v98 = getelementptr inbounds float, ptr %v24, i64 11
  %v99 = load float, ptr %v98, align 4
  %v100 = insertelement <8 x float> poison, float %v99, i32 0
  %v101 = shufflevector <8 x float> %v100, <8 x float> poison, <8 x i32> zeroinitializer
  %v102 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v101, <8 x float> %v86, <8 x float> %v82)
  %v103 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v101, <8 x float> %v88, <8 x float> %v83)
  %v104 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v101, <8 x float> %v90, <8 x float> %v84)
  %v105 = getelementptr inbounds float, ptr %v23, i64 96
  %v106 = load <8 x float>, ptr %v105, align 4
  %v107 = getelementptr inbounds float, ptr %v23, i64 104
  %v108 = load <8 x float>, ptr %v107, align 4
  %v109 = getelementptr inbounds float, ptr %v23, i64 112
  %v110 = load <8 x float>, ptr %v109, align 4
  %v111 = getelementptr inbounds float, ptr %v24, i64 4
  %v112 = load float, ptr %v111, align 4
  %v113 = insertelement <8 x float> poison, float %v112, i32 0
  %v114 = shufflevector <8 x float> %v113, <8 x float> poison, <8 x i32> zeroinitializer
  %v115 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v114, <8 x float> %v106, <8 x float> %v95)
  %v116 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v114, <8 x float> %v108, <8 x float> %v96)
  %v117 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v114, <8 x float> %v110, <8 x float> %v97)
  %v118 = getelementptr inbounds float, ptr %v24, i64 12
  %v119 = load float, ptr %v118, align 4
  %v120 = insertelement <8 x float> poison, float %v119, i32 0
  %v121 = shufflevector <8 x float> %v120, <8 x float> poison, <8 x i32> zeroinitializer
  %v122 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v106, <8 x float> %v102)
  %v123 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v108, <8 x float> %v103)
  %v124 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v110, <8 x float> %v104)
  %v125 = getelementptr inbounds float, ptr %v23, i64 120
  %v126 = load <8 x float>, ptr %v125, align 4
  %v127 = getelementptr inbounds float, ptr %v23, i64 128
  %v128 = load <8 x float>, ptr %v127, align 4
  %v129 = getelementptr inbounds float, ptr %v23, i64 136
  %v130 = load <8 x float>, ptr %v129, align 4
  %v131 = getelementptr inbounds float, ptr %v24, i64 5
  %v132 = load float, ptr %v131, align 4
  %v133 = insertelement <8 x float> poison, float %v132, i32 0
  %v134 = shufflevector <8 x float> %v133, <8 x float> poison, <8 x i32> zeroinitializer
  %v135 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v134, <8 x float> %v126, <8 x float> %v115)
  %v136 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v134, <8 x float> %v128, <8 x float> %v116)
  %v137 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v134, <8 x float> %v130, <8 x float> %v117)
  %v138 = getelementptr inbounds float, ptr %v24, i64 13
  %v139 = load float, ptr %v138, align 4
  %v140 = insertelement <8 x float> poison, float %v139, i32 0
  %v141 = shufflevector <8 x float> %v140, <8 x float> poison, <8 x i32> zeroinitializer
  %v142 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v141, <8 x float> %v126, <8 x float> %v122)
  %v143 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v141, <8 x float> %v128, <8 x float> %v123)
  %v144 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v141, <8 x float> %v130, <8 x float> %v124)
  %v145 = getelementptr inbounds float, ptr %v23, i64 144
  %v146 = load <8 x float>, ptr %v145, align 4
  %v147 = getelementptr inbounds float, ptr %v23, i64 152
  %v148 = load <8 x float>, ptr %v147, align 4
  %v149 = getelementptr inbounds float, ptr %v23, i64 160
  %v150 = load <8 x float>, ptr %v149, align 4
  %v151 = getelementptr inbounds float, ptr %v24, i64 6
  %v152 = load float, ptr %v151, align 4
  %v153 = insertelement <8 x float> poison, float %v152, i32 0
  %v154 = shufflevector <8 x float> %v153, <8 x float> poison, <8 x i32> zeroinitializer
  %v155 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v154, <8 x float> %v146, <8 x float> %v135)
  %v156 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v154, <8 x float> %v148, <8 x float> %v136)
  %v157 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v154, <8 x float> %v150, <8 x float> %v137)
  %v158 = getelementptr inbounds float, ptr %v24, i64 14
  %v159 = load float, ptr %v158, align 4
  %v160 = insertelement <8 x float> poison, float %v159, i32 0
  %v161 = shufflevector <8 x float> %v160, <8 x float> poison, <8 x i32> zeroinitializer
  %v162 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v161, <8 x float> %v146, <8 x float> %v142)
  %v163 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v161, <8 x float> %v148, <8 x float> %v143)
  %v164 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v161, <8 x float> %v150, <8 x float> %v144)
  %v165 = getelementptr inbounds float, ptr %v23, i64 168
  %v166 = load <8 x float>, ptr %v165, align 4
  %v167 = getelementptr inbounds float, ptr %v23, i64 176
  %v168 = load <8 x float>, ptr %v167, align 4
  %v169 = getelementptr inbounds float, ptr %v23, i64 184
  %v170 = load <8 x float>, ptr %v169, align 4
  %v171 = getelementptr inbounds float, ptr %v24, i64 7
  %v172 = load float, ptr %v171, align 4
  %v173 = insertelement <8 x float> poison, float %v172, i32 0
  %v174 = shufflevector <8 x float> %v173, <8 x float> poison, <8 x i32> zeroinitializer
  %v175 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v174, <8 x float> %v166, <8 x float> %v155)
  %v176 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v174, <8 x float> %v168, <8 x float> %v156)
  %v177 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v174, <8 x float> %v170, <8 x float> %v157)
  %v178 = getelementptr inbounds float, ptr %v24, i64 15
  %v179 = load float, ptr %v178, align 4
  %v180 = insertelement <8 x float> poison, float %v179, i32 0
  %v181 = shufflevector <8 x float> %v180, <8 x float> poison, <8 x i32> zeroinitializer
  %v182 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v181, <8 x float> %v166, <8 x float> %v162)
  %v183 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v181, <8 x float> %v168, <8 x float> %v163)
  %v184 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v181, <8 x float> %v170, <8 x float> %v164)
  br label %latch5
latch5:
  %carried10 = select i1 true, <8 x float> %v175, <8 x float> %v175
  %carried12 = select i1 true, <8 x float> %v176, <8 x float> %v176
  %carried14 = select i1 true, <8 x float> %v177, <8 x float> %v177
  %carried16 = select i1 true, <8 x float> %v182, <8 x float> %v182
  %carried18 = select i1 true, <8 x float> %v183, <8 x float> %v183
  %carried20 = select i1 true, <8 x float> %v184, <8 x float> %v184
  %inext8 = add i64 %i7, 8
  br label %head3
done6:
  br label %nomask187
nomask187:
  br i1 %masked, label %mask185, label %masked186
mask185:
  %v188 = trunc i64 %cols to i32
  %v189 = insertelement <8 x i32> poison, i32 %v188, i32 0
  %v190 = shufflevector <8 x i32> %v189, <8 x i32> poison, <8 x i32> zeroinitializer
  %v191 = trunc i64 %diff to i32
  %v192 = add i32 %v191, 0
  %v193 = insertelement <8 x i32> poison, i32 %v192, i32 0
  %v194 = shufflevector <8 x i32> %v193, <8 x i32> poison, <8 x i32> zeroinitializer
  %v195 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v190
  %v196 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v194
  %v197 = and <8 x i1> %v195, %v196
  %v198 = select <8 x i1> %v197, <8 x float> %carry9, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v199 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v190
  %v200 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v194
  %v201 = and <8 x i1> %v199, %v200
  %v202 = select <8 x i1> %v201, <8 x float> %carry11, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v203 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v190
  %v204 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v194
  %v205 = and <8 x i1> %v203, %v204
  %v206 = select <8 x i1> %v205, <8 x float> %carry13, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v207 = add i32 %v191, 1
  %v208 = insertelement <8 x i32> poison, i32 %v207, i32 0
  %v209 = shufflevector <8 x i32> %v208, <8 x i32> poison, <8 x i32> zeroinitializer
  %v210 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v190
  %v211 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v209
  %v212 = and <8 x i1> %v210, %v211
  %v213 = select <8 x i1> %v212, <8 x float> %carry15, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v214 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v190
  %v215 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v209
  %v216 = and <8 x i1> %v214, %v215
  %v217 = select <8 x i1> %v216, <8 x float> %carry17, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v218 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v190
  %v219 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v209
  %v220 = and <8 x i1> %v218, %v219
  %v221 = select <8 x i1> %v220, <8 x float> %carry19, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  br label %masked186
masked186:
  %v222 = phi <8 x float> [ %carry9, %nomask187 ], [ %v198, %mask185 ]
  %v223 = phi <8 x float> [ %carry11, %nomask187 ], [ %v202, %mask185 ]
  %v224 = phi <8 x float> [ %carry13, %nomask187 ], [ %v206, %mask185 ]
  %v225 = phi <8 x float> [ %carry15, %nomask187 ], [ %v213, %mask185 ]
  %v226 = phi <8 x float> [ %carry17, %nomask187 ], [ %v217, %mask185 ]
  %v227 = phi <8 x float> [ %carry19, %nomask187 ], [ %v221, %mask185 ]
  %v228 = fmul float %scale, 0x3FF7154760000000
  %v229 = insertelement <8 x float> poison, float %v228, i32 0
  %v230 = shufflevector <8 x float> %v229, <8 x float> poison, <8 x i32> zeroinitializer
  %v231 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v222, <8 x float> %v223)
  %v232 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v231, <8 x float> %v224)
  %v233 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v232)
  %v234 = fmul float %v233, %scale
  %v235 = getelementptr inbounds float, ptr %state, i64 0
  %v236 = load float, ptr %v235, align 4
  %v237 = call float @llvm.maxnum.f32(float %v236, float %v234)
  %v238 = fcmp oeq float %v237, 0xFFF0000000000000
  %v239 = select i1 %v238, float 0x0000000000000000, float %v237
  %v240 = fmul float %v239, 0xBFF7154760000000
  %v241 = insertelement <8 x float> poison, float %v240, i32 0
  %v242 = shufflevector <8 x float> %v241, <8 x float> poison, <8 x i32> zeroinitializer
  %v243 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v222, <8 x float> %v230, <8 x float> %v242)
  %v244 = call <8 x float> @exp2_8(<8 x float> %v243)
  %v245 = getelementptr inbounds float, ptr %slot1, i64 0
  store <8 x float> %v244, ptr %v245, align 4
  %v246 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v223, <8 x float> %v230, <8 x float> %v242)
  %v247 = call <8 x float> @exp2_8(<8 x float> %v246)
  %v248 = getelementptr inbounds float, ptr %slot1, i64 8
  store <8 x float> %v247, ptr %v248, align 4
  %v249 = fadd <8 x float> %v244, %v247
  %v250 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v224, <8 x float> %v230, <8 x float> %v242)
  %v251 = call <8 x float> @exp2_8(<8 x float> %v250)
  %v252 = getelementptr inbounds float, ptr %slot1, i64 16
  store <8 x float> %v251, ptr %v252, align 4
  %v253 = fadd <8 x float> %v249, %v251
  %v254 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v253)
  %v255 = fsub float %v236, %v239
  %v256 = fmul float %v255, 0x3FF7154760000000
  %v257 = fcmp une float %v237, %v236
  %v258 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v225, <8 x float> %v226)
  %v259 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v258, <8 x float> %v227)
  %v260 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v259)
  %v261 = fmul float %v260, %scale
  %v262 = getelementptr inbounds float, ptr %state, i64 10
  %v263 = load float, ptr %v262, align 4
  %v264 = call float @llvm.maxnum.f32(float %v263, float %v261)
  %v265 = fcmp oeq float %v264, 0xFFF0000000000000
  %v266 = select i1 %v265, float 0x0000000000000000, float %v264
  %v267 = fmul float %v266, 0xBFF7154760000000
  %v268 = insertelement <8 x float> poison, float %v267, i32 0
  %v269 = shufflevector <8 x float> %v268, <8 x float> poison, <8 x i32> zeroinitializer
  %v270 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v225, <8 x float> %v230, <8 x float> %v269)
  %v271 = call <8 x float> @exp2_8(<8 x float> %v270)
  %v272 = getelementptr inbounds float, ptr %slot1, i64 24
  store <8 x float> %v271, ptr %v272, align 4
  %v273 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v226, <8 x float> %v230, <8 x float> %v269)
  %v274 = call <8 x float> @exp2_8(<8 x float> %v273)
  %v275 = getelementptr inbounds float, ptr %slot1, i64 32
  store <8 x float> %v274, ptr %v275, align 4
  %v276 = fadd <8 x float> %v271, %v274
  %v277 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v227, <8 x float> %v230, <8 x float> %v269)
  %v278 = call <8 x float> @exp2_8(<8 x float> %v277)
  %v279 = getelementptr inbounds float, ptr %slot1, i64 40
  store <8 x float> %v278, ptr %v279, align 4
  %v280 = fadd <8 x float> %v276, %v278
  %v281 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v280)
  %v282 = fsub float %v263, %v266
  %v283 = fmul float %v282, 0x3FF7154760000000
  %v284 = fcmp une float %v264, %v263
  %v285 = insertelement <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, float %v256, i32 0
  %v286 = insertelement <8 x float> %v285, float %v283, i32 1
  %v287 = call <8 x float> @exp2_8(<8 x float> %v286)
  %v288 = extractelement <8 x float> %v287, i32 0
  %v289 = getelementptr inbounds float, ptr %state, i64 1
  %v290 = load float, ptr %v289, align 4
  %v291 = call float @llvm.fma.f32(float %v290, float %v288, float %v254)
  store float %v291, ptr %v289, align 4
  %v292 = getelementptr inbounds float, ptr %state, i64 0
  store float %v237, ptr %v292, align 4
  %v293 = insertelement <8 x float> poison, float %v288, i32 0
  %v294 = shufflevector <8 x float> %v293, <8 x float> poison, <8 x i32> zeroinitializer
  %v295 = or i1 false, %v257
  %v296 = extractelement <8 x float> %v287, i32 1
  %v297 = getelementptr inbounds float, ptr %state, i64 11
  %v298 = load float, ptr %v297, align 4
  %v299 = call float @llvm.fma.f32(float %v298, float %v296, float %v281)
  store float %v299, ptr %v297, align 4
  %v300 = getelementptr inbounds float, ptr %state, i64 10
  store float %v264, ptr %v300, align 4
  %v301 = insertelement <8 x float> poison, float %v296, i32 0
  %v302 = shufflevector <8 x float> %v301, <8 x float> poison, <8 x i32> zeroinitializer
  %v303 = or i1 %v295, %v284
  %v304 = sdiv i64 %cols, 4
  %v305 = mul i64 %v304, 4
  br i1 %v303, label %pv_scaled306, label %pv_plain307
pv_scaled306:
  %v309 = getelementptr inbounds float, ptr %state, i64 2
  %v310 = load <8 x float>, ptr %v309, align 4
  %v311 = fmul <8 x float> %v310, %v294
  %v312 = getelementptr inbounds float, ptr %state, i64 12
  %v313 = load <8 x float>, ptr %v312, align 4
  %v314 = fmul <8 x float> %v313, %v302
  br label %pre315
pre315:
  br label %head316
head316:
  %i320 = phi i64 [ 0, %pre315 ], [ %inext321, %latch318 ]
  %carry322 = phi <8 x float> [ %v311, %pre315 ], [ %carried323, %latch318 ]
  %carry324 = phi <8 x float> [ %v314, %pre315 ], [ %carried325, %latch318 ]
  %v326 = icmp slt i64 %i320, %v305
  br i1 %v326, label %body317, label %done319
body317:
  %v327 = add i64 %i320, 0
  %v328 = mul i64 %v327, 8
  %v329 = add i64 %v328, 0
  %v330 = getelementptr inbounds float, ptr %v, i64 %v329
  %v331 = load <8 x float>, ptr %v330, align 4
  %v332 = add i64 %v327, 0
  %v333 = getelementptr inbounds float, ptr %slot1, i64 %v332
  %v334 = load float, ptr %v333, align 4
  %v335 = insertelement <8 x float> poison, float %v334, i32 0
  %v336 = shufflevector <8 x float> %v335, <8 x float> poison, <8 x i32> zeroinitializer
  %v337 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v336, <8 x float> %v331, <8 x float> %carry322)
  %v338 = add i64 %v327, 24
  %v339 = getelementptr inbounds float, ptr %slot1, i64 %v338
  %v340 = load float, ptr %v339, align 4
  %v341 = insertelement <8 x float> poison, float %v340, i32 0
  %v342 = shufflevector <8 x float> %v341, <8 x float> poison, <8 x i32> zeroinitializer
  %v343 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v342, <8 x float> %v331, <8 x float> %carry324)
  %v344 = add i64 %i320, 1
  %v345 = mul i64 %v344, 8
  %v346 = add i64 %v345, 0
  %v347 = getelementptr inbounds float, ptr %v, i64 %v346
  %v348 = load <8 x float>, ptr %v347, align 4
  %v349 = add i64 %v344, 0
  %v350 = getelementptr inbounds float, ptr %slot1, i64 %v349
  %v351 = load float, ptr %v350, align 4
  %v352 = insertelement <8 x float> poison, float %v351, i32 0
  %v353 = shufflevector <8 x float> %v352, <8 x float> poison, <8 x i32> zeroinitializer
  %v354 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v353, <8 x float> %v348, <8 x float> %v337)
  %v355 = add i64 %v344, 24
  %v356 = getelementptr inbounds float, ptr %slot1, i64 %v355
  %v357 = load float, ptr %v356, align 4
  %v358 = insertelement <8 x float> poison, float %v357, i32 0
  %v359 = shufflevector <8 x float> %v358, <8 x float> poison, <8 x i32> zeroinitializer
  %v360 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v359, <8 x float> %v348, <8 x float> %v343)
  %v361 = add i64 %i320, 2
  %v362 = mul i64 %v361, 8
  %v363 = add i64 %v362, 0
  %v364 = getelementptr inbounds float, ptr %v, i64 %v363
  %v365 = load <8 x float>, ptr %v364, align 4
  %v366 = add i64 %v361, 0
  %v367 = getelementptr inbounds float, ptr %slot1, i64 %v366
  %v368 = load float, ptr %v367, align 4
  %v369 = insertelement <8 x float> poison, float %v368, i32 0
  %v370 = shufflevector <8 x float> %v369, <8 x float> poison, <8 x i32> zeroinitializer
  %v371 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v370, <8 x float> %v365, <8 x float> %v354)
  %v372 = add i64 %v361, 24
  %v373 = getelementptr inbounds float, ptr %slot1, i64 %v372
  %v374 = load float, ptr %v373, align 4
  %v375 = insertelement <8 x float> poison, float %v374, i32 0
  %v376 = shufflevector <8 x float> %v375, <8 x float> poison, <8 x i32> zeroinitializer
  %v377 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v376, <8 x float> %v365, <8 x float> %v360)
  %v378 = add i64 %i320, 3
  %v379 = mul i64 %v378, 8
  %v380 = add i64 %v379, 0
  %v381 = getelementptr inbounds float, ptr %v, i64 %v380
  %v382 = load <8 x float>, ptr %v381, align 4
  %v383 = add i64 %v378, 0
  %v384 = getelementptr inbounds float, ptr %slot1, i64 %v383
  %v385 = load float, ptr %v384, align 4
  %v386 = insertelement <8 x float> poison, float %v385, i32 0
  %v387 = shufflevector <8 x float> %v386, <8 x float> poison, <8 x i32> zeroinitializer
  %v388 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v387, <8 x float> %v382, <8 x float> %v371)
  %v389 = add i64 %v378, 24
  %v390 = getelementptr inbounds float, ptr %slot1, i64 %v389
  %v391 = load float, ptr %v390, align 4
  %v392 = insertelement <8 x float> poison, float %v391, i32 0
  %v393 = shufflevector <8 x float> %v392, <8 x float> poison, <8 x i32> zeroinitializer
  %v394 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v393, <8 x float> %v382, <8 x float> %v377)
  br label %latch318
latch318:
  %carried323 = select i1 true, <8 x float> %v388, <8 x float> %v388
  %carried325 = select i1 true, <8 x float> %v394, <8 x float> %v394
  %inext321 = add i64 %i320, 4
  br label %head316
done319:
  br label %pre395
pre395:
  br label %head396
head396:
  %i400 = phi i64 [ %v305, %pre395 ], [ %inext401, %latch398 ]
  %carry402 = phi <8 x float> [ %carry322, %pre395 ], [ %carried403, %latch398 ]
  %carry404 = phi <8 x float> [ %carry324, %pre395 ], [ %carried405, %latch398 ]
  %v406 = icmp slt i64 %i400, %cols
  br i1 %v406, label %body397, label %done399
body397:
  %v407 = mul i64 %i400, 8
  %v408 = add i64 %v407, 0
  %v409 = getelementptr inbounds float, ptr %v, i64 %v408
  %v410 = load <8 x float>, ptr %v409, align 4
  %v411 = add i64 %i400, 0
  %v412 = getelementptr inbounds float, ptr %slot1, i64 %v411
  %v413 = load float, ptr %v412, align 4
  %v414 = insertelement <8 x float> poison, float %v413, i32 0
  %v415 = shufflevector <8 x float> %v414, <8 x float> poison, <8 x i32> zeroinitializer
  %v416 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v415, <8 x float> %v410, <8 x float> %carry402)
  %v417 = add i64 %i400, 24
  %v418 = getelementptr inbounds float, ptr %slot1, i64 %v417
  %v419 = load float, ptr %v418, align 4
  %v420 = insertelement <8 x float> poison, float %v419, i32 0
  %v421 = shufflevector <8 x float> %v420, <8 x float> poison, <8 x i32> zeroinitializer
  %v422 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v421, <8 x float> %v410, <8 x float> %carry404)
  br label %latch398
latch398:
  %carried403 = select i1 true, <8 x float> %v416, <8 x float> %v416
  %carried405 = select i1 true, <8 x float> %v422, <8 x float> %v422
  %inext401 = add i64 %i400, 1
  br label %head396
done399:
  %v423 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry402, ptr %v423, align 4
  %v424 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry404, ptr %v424, align 4
  br label %pv_done308
pv_plain307:
  %v425 = getelementptr inbounds float, ptr %state, i64 2
  %v426 = load <8 x float>, ptr %v425, align 4
  %v427 = getelementptr inbounds float, ptr %state, i64 12
  %v428 = load <8 x float>, ptr %v427, align 4
  br label %pre429
pre429:
  br label %head430
head430:
  %i434 = phi i64 [ 0, %pre429 ], [ %inext435, %latch432 ]
  %carry436 = phi <8 x float> [ %v426, %pre429 ], [ %carried437, %latch432 ]
  %carry438 = phi <8 x float> [ %v428, %pre429 ], [ %carried439, %latch432 ]
  %v440 = icmp slt i64 %i434, %v305
  br i1 %v440, label %body431, label %done433
body431:
  %v441 = add i64 %i434, 0
  %v442 = mul i64 %v441, 8
  %v443 = add i64 %v442, 0
  %v444 = getelementptr inbounds float, ptr %v, i64 %v443
  %v445 = load <8 x float>, ptr %v444, align 4
  %v446 = add i64 %v441, 0
  %v447 = getelementptr inbounds float, ptr %slot1, i64 %v446
  %v448 = load float, ptr %v447, align 4
  %v449 = insertelement <8 x float> poison, float %v448, i32 0
  %v450 = shufflevector <8 x float> %v449, <8 x float> poison, <8 x i32> zeroinitializer
  %v451 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v450, <8 x float> %v445, <8 x float> %carry436)
  %v452 = add i64 %v441, 24
  %v453 = getelementptr inbounds float, ptr %slot1, i64 %v452
  %v454 = load float, ptr %v453, align 4
  %v455 = insertelement <8 x float> poison, float %v454, i32 0
  %v456 = shufflevector <8 x float> %v455, <8 x float> poison, <8 x i32> zeroinitializer
  %v457 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v456, <8 x float> %v445, <8 x float> %carry438)
  %v458 = add i64 %i434, 1
  %v459 = mul i64 %v458, 8
  %v460 = add i64 %v459, 0
  %v461 = getelementptr inbounds float, ptr %v, i64 %v460
  %v462 = load <8 x float>, ptr %v461, align 4
  %v463 = add i64 %v458, 0
  %v464 = getelementptr inbounds float, ptr %slot1, i64 %v463
  %v465 = load float, ptr %v464, align 4
  %v466 = insertelement <8 x float> poison, float %v465, i32 0
  %v467 = shufflevector <8 x float> %v466, <8 x float> poison, <8 x i32> zeroinitializer
  %v468 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v467, <8 x float> %v462, <8 x float> %v451)
  %v469 = add i64 %v458, 24
  %v470 = getelementptr inbounds float, ptr %slot1, i64 %v469
  %v471 = load float, ptr %v470, align 4
  %v472 = insertelement <8 x float> poison, float %v471, i32 0
  %v473 = shufflevector <8 x float> %v472, <8 x float> poison, <8 x i32> zeroinitializer
  %v474 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v473, <8 x float> %v462, <8 x float> %v457)
  %v475 = add i64 %i434, 2
  %v476 = mul i64 %v475, 8
  %v477 = add i64 %v476, 0
  %v478 = getelementptr inbounds float, ptr %v, i64 %v477
  %v479 = load <8 x float>, ptr %v478, align 4
  %v480 = add i64 %v475, 0
  %v481 = getelementptr inbounds float, ptr %slot1, i64 %v480
  %v482 = load float, ptr %v481, align 4
  %v483 = insertelement <8 x float> poison, float %v482, i32 0
  %v484 = shufflevector <8 x float> %v483, <8 x float> poison, <8 x i32> zeroinitializer
  %v485 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v484, <8 x float> %v479, <8 x float> %v468)
  %v486 = add i64 %v475, 24
  %v487 = getelementptr inbounds float, ptr %slot1, i64 %v486
  %v488 = load float, ptr %v487, align 4
  %v489 = insertelement <8 x float> poison, float %v488, i32 0
  %v490 = shufflevector <8 x float> %v489, <8 x float> poison, <8 x i32> zeroinitializer
  %v491 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v490, <8 x float> %v479, <8 x float> %v474)
  %v492 = add i64 %i434, 3
  %v493 = mul i64 %v492, 8
  %v494 = add i64 %v493, 0
  %v495 = getelementptr inbounds float, ptr %v, i64 %v494
  %v496 = load <8 x float>, ptr %v495, align 4
  %v497 = add i64 %v492, 0
  %v498 = getelementptr inbounds float, ptr %slot1, i64 %v497
  %v499 = load float, ptr %v498, align 4
  %v500 = insertelement <8 x float> poison, float %v499, i32 0
  %v501 = shufflevector <8 x float> %v500, <8 x float> poison, <8 x i32> zeroinitializer
  %v502 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v501, <8 x float> %v496, <8 x float> %v485)
  %v503 = add i64 %v492, 24
  %v504 = getelementptr inbounds float, ptr %slot1, i64 %v503
  %v505 = load float, ptr %v504, align 4
  %v506 = insertelement <8 x float> poison, float %v505, i32 0
  %v507 = shufflevector <8 x float> %v506, <8 x float> poison, <8 x i32> zeroinitializer
  %v508 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v507, <8 x float> %v496, <8 x float> %v491)
  br label %latch432
latch432:
  %carried437 = select i1 true, <8 x float> %v502, <8 x float> %v502
  %carried439 = select i1 true, <8 x float> %v508, <8 x float> %v508
  %inext435 = add i64 %i434, 4
  br label %head430
done433:
  br label %pre509
pre509:
  br label %head510
head510:
  %i514 = phi i64 [ %v305, %pre509 ], [ %inext515, %latch512 ]
  %carry516 = phi <8 x float> [ %carry436, %pre509 ], [ %carried517, %latch512 ]
  %carry518 = phi <8 x float> [ %carry438, %pre509 ], [ %carried519, %latch512 ]
  %v520 = icmp slt i64 %i514, %cols
  br i1 %v520, label %body511, label %done513
body511:
  %v521 = mul i64 %i514, 8
  %v522 = add i64 %v521, 0
  %v523 = getelementptr inbounds float, ptr %v, i64 %v522
  %v524 = load <8 x float>, ptr %v523, align 4
  %v525 = add i64 %i514, 0
  %v526 = getelementptr inbounds float, ptr %slot1, i64 %v525
  %v527 = load float, ptr %v526, align 4
  %v528 = insertelement <8 x float> poison, float %v527, i32 0
  %v529 = shufflevector <8 x float> %v528, <8 x float> poison, <8 x i32> zeroinitializer
  %v530 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v529, <8 x float> %v524, <8 x float> %carry516)
  %v531 = add i64 %i514, 24
  %v532 = getelementptr inbounds float, ptr %slot1, i64 %v531
  %v533 = load float, ptr %v532, align 4
  %v534 = insertelement <8 x float> poison, float %v533, i32 0
  %v535 = shufflevector <8 x float> %v534, <8 x float> poison, <8 x i32> zeroinitializer
  %v536 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v535, <8 x float> %v524, <8 x float> %carry518)
  br label %latch512
latch512:
  %carried517 = select i1 true, <8 x float> %v530, <8 x float> %v530
  %carried519 = select i1 true, <8 x float> %v536, <8 x float> %v536
  %inext515 = add i64 %i514, 1
  br label %head510
done513:
  %v537 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry516, ptr %v537, align 4
  %v538 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry518, ptr %v538, align 4
  br label %pv_done308
pv_done308:
  ret void
}

define void @attn_fwd_d8_causal_fp32_g1_t2x16(ptr noalias %args) "target-cpu"="x86-64-v3" "target-features"="+avx2,+fma" nounwind {
entry:
  %slot7 = alloca [192 x float], align 32
  %slot8 = alloca [192 x float], align 32
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
  %v47 = call i64 @llvm.smin.i64(i64 %v46, i64 24)
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
  %v65 = add i64 %i53, 24
  %v66 = getelementptr inbounds float, ptr %slot7, i64 %v65
  store float %v64, ptr %v66, align 4
  %v67 = getelementptr inbounds float, ptr %v58, i64 2
  %v68 = load float, ptr %v67, align 4
  %v69 = add i64 %i53, 48
  %v70 = getelementptr inbounds float, ptr %slot7, i64 %v69
  store float %v68, ptr %v70, align 4
  %v71 = getelementptr inbounds float, ptr %v58, i64 3
  %v72 = load float, ptr %v71, align 4
  %v73 = add i64 %i53, 72
  %v74 = getelementptr inbounds float, ptr %slot7, i64 %v73
  store float %v72, ptr %v74, align 4
  %v75 = getelementptr inbounds float, ptr %v58, i64 4
  %v76 = load float, ptr %v75, align 4
  %v77 = add i64 %i53, 96
  %v78 = getelementptr inbounds float, ptr %slot7, i64 %v77
  store float %v76, ptr %v78, align 4
  %v79 = getelementptr inbounds float, ptr %v58, i64 5
  %v80 = load float, ptr %v79, align 4
  %v81 = add i64 %i53, 120
  %v82 = getelementptr inbounds float, ptr %slot7, i64 %v81
  store float %v80, ptr %v82, align 4
  %v83 = getelementptr inbounds float, ptr %v58, i64 6
  %v84 = load float, ptr %v83, align 4
  %v85 = add i64 %i53, 144
  %v86 = getelementptr inbounds float, ptr %slot7, i64 %v85
  store float %v84, ptr %v86, align 4
  %v87 = getelementptr inbounds float, ptr %v58, i64 7
  %v88 = load float, ptr %v87, align 4
  %v89 = add i64 %i53, 168
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
  %v110 = icmp slt i64 %v47, 24
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
  %inext44 = add i64 %i43, 24
  br label %head39
done42:
  br label %latch24
latch24:
  %inext27 = add i64 %i26, 256
  br label %head22
done25:
  ret void
}
