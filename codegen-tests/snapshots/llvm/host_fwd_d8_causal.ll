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
  %v2 = getelementptr inbounds float, ptr %q, i64 0
  %v3 = getelementptr inbounds float, ptr %q, i64 8
  %v4 = getelementptr inbounds float, ptr %q, i64 16
  %v5 = getelementptr inbounds float, ptr %q, i64 24
  br label %pre6
pre6:
  br label %head7
head7:
  %i11 = phi i64 [ 0, %pre6 ], [ %inext12, %latch9 ]
  %carry13 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre6 ], [ %carried14, %latch9 ]
  %carry15 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre6 ], [ %carried16, %latch9 ]
  %carry17 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre6 ], [ %carried18, %latch9 ]
  %carry19 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre6 ], [ %carried20, %latch9 ]
  %carry21 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre6 ], [ %carried22, %latch9 ]
  %carry23 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre6 ], [ %carried24, %latch9 ]
  %carry25 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre6 ], [ %carried26, %latch9 ]
  %carry27 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre6 ], [ %carried28, %latch9 ]
  %carry29 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre6 ], [ %carried30, %latch9 ]
  %carry31 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre6 ], [ %carried32, %latch9 ]
  %carry33 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre6 ], [ %carried34, %latch9 ]
  %carry35 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre6 ], [ %carried36, %latch9 ]
  %v37 = icmp slt i64 %i11, 8
  br i1 %v37, label %body8, label %done10
body8:
  %v38 = mul i64 %i11, 24
  %v39 = getelementptr inbounds float, ptr %kt, i64 %v38
  %v40 = getelementptr inbounds float, ptr %v2, i64 %i11
  %v41 = getelementptr inbounds float, ptr %v3, i64 %i11
  %v42 = getelementptr inbounds float, ptr %v4, i64 %i11
  %v43 = getelementptr inbounds float, ptr %v5, i64 %i11
  %v44 = getelementptr inbounds float, ptr %v39, i64 0
  %v45 = load <8 x float>, ptr %v44, align 4
  %v46 = getelementptr inbounds float, ptr %v39, i64 8
  %v47 = load <8 x float>, ptr %v46, align 4
  %v48 = getelementptr inbounds float, ptr %v39, i64 16
  %v49 = load <8 x float>, ptr %v48, align 4
  %v50 = getelementptr inbounds float, ptr %v40, i64 0
  %v51 = load float, ptr %v50, align 4
  %v52 = insertelement <8 x float> poison, float %v51, i32 0
  %v53 = shufflevector <8 x float> %v52, <8 x float> poison, <8 x i32> zeroinitializer
  %v54 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v53, <8 x float> %v45, <8 x float> %carry13)
  %v55 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v53, <8 x float> %v47, <8 x float> %carry15)
  %v56 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v53, <8 x float> %v49, <8 x float> %carry17)
  %v57 = getelementptr inbounds float, ptr %v41, i64 0
  %v58 = load float, ptr %v57, align 4
  %v59 = insertelement <8 x float> poison, float %v58, i32 0
  %v60 = shufflevector <8 x float> %v59, <8 x float> poison, <8 x i32> zeroinitializer
  %v61 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v60, <8 x float> %v45, <8 x float> %carry19)
  %v62 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v60, <8 x float> %v47, <8 x float> %carry21)
  %v63 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v60, <8 x float> %v49, <8 x float> %carry23)
  %v64 = getelementptr inbounds float, ptr %v42, i64 0
  %v65 = load float, ptr %v64, align 4
  %v66 = insertelement <8 x float> poison, float %v65, i32 0
  %v67 = shufflevector <8 x float> %v66, <8 x float> poison, <8 x i32> zeroinitializer
  %v68 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v67, <8 x float> %v45, <8 x float> %carry25)
  %v69 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v67, <8 x float> %v47, <8 x float> %carry27)
  %v70 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v67, <8 x float> %v49, <8 x float> %carry29)
  %v71 = getelementptr inbounds float, ptr %v43, i64 0
  %v72 = load float, ptr %v71, align 4
  %v73 = insertelement <8 x float> poison, float %v72, i32 0
  %v74 = shufflevector <8 x float> %v73, <8 x float> poison, <8 x i32> zeroinitializer
  %v75 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v74, <8 x float> %v45, <8 x float> %carry31)
  %v76 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v74, <8 x float> %v47, <8 x float> %carry33)
  %v77 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v74, <8 x float> %v49, <8 x float> %carry35)
  %v78 = getelementptr inbounds float, ptr %v39, i64 24
  %v79 = load <8 x float>, ptr %v78, align 4
  %v80 = getelementptr inbounds float, ptr %v39, i64 32
  %v81 = load <8 x float>, ptr %v80, align 4
  %v82 = getelementptr inbounds float, ptr %v39, i64 40
  %v83 = load <8 x float>, ptr %v82, align 4
  %v84 = getelementptr inbounds float, ptr %v40, i64 1
  %v85 = load float, ptr %v84, align 4
  %v86 = insertelement <8 x float> poison, float %v85, i32 0
  %v87 = shufflevector <8 x float> %v86, <8 x float> poison, <8 x i32> zeroinitializer
  %v88 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v87, <8 x float> %v79, <8 x float> %v54)
  %v89 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v87, <8 x float> %v81, <8 x float> %v55)
  %v90 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v87, <8 x float> %v83, <8 x float> %v56)
  %v91 = getelementptr inbounds float, ptr %v41, i64 1
  %v92 = load float, ptr %v91, align 4
  %v93 = insertelement <8 x float> poison, float %v92, i32 0
  %v94 = shufflevector <8 x float> %v93, <8 x float> poison, <8 x i32> zeroinitializer
  %v95 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v94, <8 x float> %v79, <8 x float> %v61)
  %v96 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v94, <8 x float> %v81, <8 x float> %v62)
  %v97 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v94, <8 x float> %v83, <8 x float> %v63)
  %v98 = getelementptr inbounds float, ptr %v42, i64 1
  %v99 = load float, ptr %v98, align 4
  %v100 = insertelement <8 x float> poison, float %v99, i32 0
  %v101 = shufflevector <8 x float> %v100, <8 x float> poison, <8 x i32> zeroinitializer
  %v102 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v101, <8 x float> %v79, <8 x float> %v68)
  %v103 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v101, <8 x float> %v81, <8 x float> %v69)
  %v104 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v101, <8 x float> %v83, <8 x float> %v70)
  %v105 = getelementptr inbounds float, ptr %v43, i64 1
  %v106 = load float, ptr %v105, align 4
  %v107 = insertelement <8 x float> poison, float %v106, i32 0
  %v108 = shufflevector <8 x float> %v107, <8 x float> poison, <8 x i32> zeroinitializer
  %v109 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v108, <8 x float> %v79, <8 x float> %v75)
  %v110 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v108, <8 x float> %v81, <8 x float> %v76)
  %v111 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v108, <8 x float> %v83, <8 x float> %v77)
  %v112 = getelementptr inbounds float, ptr %v39, i64 48
  %v113 = load <8 x float>, ptr %v112, align 4
  %v114 = getelementptr inbounds float, ptr %v39, i64 56
  %v115 = load <8 x float>, ptr %v114, align 4
  %v116 = getelementptr inbounds float, ptr %v39, i64 64
  %v117 = load <8 x float>, ptr %v116, align 4
  %v118 = getelementptr inbounds float, ptr %v40, i64 2
  %v119 = load float, ptr %v118, align 4
  %v120 = insertelement <8 x float> poison, float %v119, i32 0
  %v121 = shufflevector <8 x float> %v120, <8 x float> poison, <8 x i32> zeroinitializer
  %v122 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v113, <8 x float> %v88)
  %v123 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v115, <8 x float> %v89)
  %v124 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v117, <8 x float> %v90)
  %v125 = getelementptr inbounds float, ptr %v41, i64 2
  %v126 = load float, ptr %v125, align 4
  %v127 = insertelement <8 x float> poison, float %v126, i32 0
  %v128 = shufflevector <8 x float> %v127, <8 x float> poison, <8 x i32> zeroinitializer
  %v129 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v128, <8 x float> %v113, <8 x float> %v95)
  %v130 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v128, <8 x float> %v115, <8 x float> %v96)
  %v131 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v128, <8 x float> %v117, <8 x float> %v97)
  %v132 = getelementptr inbounds float, ptr %v42, i64 2
  %v133 = load float, ptr %v132, align 4
  %v134 = insertelement <8 x float> poison, float %v133, i32 0
  %v135 = shufflevector <8 x float> %v134, <8 x float> poison, <8 x i32> zeroinitializer
  %v136 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v135, <8 x float> %v113, <8 x float> %v102)
  %v137 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v135, <8 x float> %v115, <8 x float> %v103)
  %v138 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v135, <8 x float> %v117, <8 x float> %v104)
  %v139 = getelementptr inbounds float, ptr %v43, i64 2
  %v140 = load float, ptr %v139, align 4
  %v141 = insertelement <8 x float> poison, float %v140, i32 0
  %v142 = shufflevector <8 x float> %v141, <8 x float> poison, <8 x i32> zeroinitializer
  %v143 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v142, <8 x float> %v113, <8 x float> %v109)
  %v144 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v142, <8 x float> %v115, <8 x float> %v110)
  %v145 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v142, <8 x float> %v117, <8 x float> %v111)
  %v146 = getelementptr inbounds float, ptr %v39, i64 72
  %v147 = load <8 x float>, ptr %v146, align 4
  %v148 = getelementptr inbounds float, ptr %v39, i64 80
  %v149 = load <8 x float>, ptr %v148, align 4
  %v150 = getelementptr inbounds float, ptr %v39, i64 88
  %v151 = load <8 x float>, ptr %v150, align 4
  %v152 = getelementptr inbounds float, ptr %v40, i64 3
  %v153 = load float, ptr %v152, align 4
  %v154 = insertelement <8 x float> poison, float %v153, i32 0
  %v155 = shufflevector <8 x float> %v154, <8 x float> poison, <8 x i32> zeroinitializer
  %v156 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v155, <8 x float> %v147, <8 x float> %v122)
  %v157 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v155, <8 x float> %v149, <8 x float> %v123)
  %v158 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v155, <8 x float> %v151, <8 x float> %v124)
  %v159 = getelementptr inbounds float, ptr %v41, i64 3
  %v160 = load float, ptr %v159, align 4
  %v161 = insertelement <8 x float> poison, float %v160, i32 0
  %v162 = shufflevector <8 x float> %v161, <8 x float> poison, <8 x i32> zeroinitializer
  %v163 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v162, <8 x float> %v147, <8 x float> %v129)
  %v164 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v162, <8 x float> %v149, <8 x float> %v130)
  %v165 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v162, <8 x float> %v151, <8 x float> %v131)
  %v166 = getelementptr inbounds float, ptr %v42, i64 3
  %v167 = load float, ptr %v166, align 4
  %v168 = insertelement <8 x float> poison, float %v167, i32 0
  %v169 = shufflevector <8 x float> %v168, <8 x float> poison, <8 x i32> zeroinitializer
  %v170 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v169, <8 x float> %v147, <8 x float> %v136)
  %v171 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v169, <8 x float> %v149, <8 x float> %v137)
  %v172 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v169, <8 x float> %v151, <8 x float> %v138)
  %v173 = getelementptr inbounds float, ptr %v43, i64 3
  %v174 = load float, ptr %v173, align 4
  %v175 = insertelement <8 x float> poison, float %v174, i32 0
  %v176 = shufflevector <8 x float> %v175, <8 x float> poison, <8 x i32> zeroinitializer
  %v177 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v176, <8 x float> %v147, <8 x float> %v143)
  %v178 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v176, <8 x float> %v149, <8 x float> %v144)
  %v179 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v176, <8 x float> %v151, <8 x float> %v145)
  %v180 = getelementptr inbounds float, ptr %v39, i64 96
  %v181 = load <8 x float>, ptr %v180, align 4
  %v182 = getelementptr inbounds float, ptr %v39, i64 104
  %v183 = load <8 x float>, ptr %v182, align 4
  %v184 = getelementptr inbounds float, ptr %v39, i64 112
  %v185 = load <8 x float>, ptr %v184, align 4
  %v186 = getelementptr inbounds float, ptr %v40, i64 4
  %v187 = load float, ptr %v186, align 4
  %v188 = insertelement <8 x float> poison, float %v187, i32 0
  %v189 = shufflevector <8 x float> %v188, <8 x float> poison, <8 x i32> zeroinitializer
  %v190 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v189, <8 x float> %v181, <8 x float> %v156)
  %v191 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v189, <8 x float> %v183, <8 x float> %v157)
  %v192 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v189, <8 x float> %v185, <8 x float> %v158)
  %v193 = getelementptr inbounds float, ptr %v41, i64 4
  %v194 = load float, ptr %v193, align 4
  %v195 = insertelement <8 x float> poison, float %v194, i32 0
  %v196 = shufflevector <8 x float> %v195, <8 x float> poison, <8 x i32> zeroinitializer
  %v197 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v196, <8 x float> %v181, <8 x float> %v163)
  %v198 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v196, <8 x float> %v183, <8 x float> %v164)
  %v199 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v196, <8 x float> %v185, <8 x float> %v165)
  %v200 = getelementptr inbounds float, ptr %v42, i64 4
  %v201 = load float, ptr %v200, align 4
  %v202 = insertelement <8 x float> poison, float %v201, i32 0
  %v203 = shufflevector <8 x float> %v202, <8 x float> poison, <8 x i32> zeroinitializer
  %v204 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v203, <8 x float> %v181, <8 x float> %v170)
  %v205 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v203, <8 x float> %v183, <8 x float> %v171)
  %v206 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v203, <8 x float> %v185, <8 x float> %v172)
  %v207 = getelementptr inbounds float, ptr %v43, i64 4
  %v208 = load float, ptr %v207, align 4
  %v209 = insertelement <8 x float> poison, float %v208, i32 0
  %v210 = shufflevector <8 x float> %v209, <8 x float> poison, <8 x i32> zeroinitializer
  %v211 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v210, <8 x float> %v181, <8 x float> %v177)
  %v212 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v210, <8 x float> %v183, <8 x float> %v178)
  %v213 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v210, <8 x float> %v185, <8 x float> %v179)
  %v214 = getelementptr inbounds float, ptr %v39, i64 120
  %v215 = load <8 x float>, ptr %v214, align 4
  %v216 = getelementptr inbounds float, ptr %v39, i64 128
  %v217 = load <8 x float>, ptr %v216, align 4
  %v218 = getelementptr inbounds float, ptr %v39, i64 136
  %v219 = load <8 x float>, ptr %v218, align 4
  %v220 = getelementptr inbounds float, ptr %v40, i64 5
  %v221 = load float, ptr %v220, align 4
  %v222 = insertelement <8 x float> poison, float %v221, i32 0
  %v223 = shufflevector <8 x float> %v222, <8 x float> poison, <8 x i32> zeroinitializer
  %v224 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v223, <8 x float> %v215, <8 x float> %v190)
  %v225 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v223, <8 x float> %v217, <8 x float> %v191)
  %v226 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v223, <8 x float> %v219, <8 x float> %v192)
  %v227 = getelementptr inbounds float, ptr %v41, i64 5
  %v228 = load float, ptr %v227, align 4
  %v229 = insertelement <8 x float> poison, float %v228, i32 0
  %v230 = shufflevector <8 x float> %v229, <8 x float> poison, <8 x i32> zeroinitializer
  %v231 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v230, <8 x float> %v215, <8 x float> %v197)
  %v232 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v230, <8 x float> %v217, <8 x float> %v198)
  %v233 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v230, <8 x float> %v219, <8 x float> %v199)
  %v234 = getelementptr inbounds float, ptr %v42, i64 5
  %v235 = load float, ptr %v234, align 4
  %v236 = insertelement <8 x float> poison, float %v235, i32 0
  %v237 = shufflevector <8 x float> %v236, <8 x float> poison, <8 x i32> zeroinitializer
  %v238 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v237, <8 x float> %v215, <8 x float> %v204)
  %v239 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v237, <8 x float> %v217, <8 x float> %v205)
  %v240 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v237, <8 x float> %v219, <8 x float> %v206)
  %v241 = getelementptr inbounds float, ptr %v43, i64 5
  %v242 = load float, ptr %v241, align 4
  %v243 = insertelement <8 x float> poison, float %v242, i32 0
  %v244 = shufflevector <8 x float> %v243, <8 x float> poison, <8 x i32> zeroinitializer
  %v245 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v244, <8 x float> %v215, <8 x float> %v211)
  %v246 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v244, <8 x float> %v217, <8 x float> %v212)
  %v247 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v244, <8 x float> %v219, <8 x float> %v213)
  %v248 = getelementptr inbounds float, ptr %v39, i64 144
  %v249 = load <8 x float>, ptr %v248, align 4
  %v250 = getelementptr inbounds float, ptr %v39, i64 152
  %v251 = load <8 x float>, ptr %v250, align 4
  %v252 = getelementptr inbounds float, ptr %v39, i64 160
  %v253 = load <8 x float>, ptr %v252, align 4
  %v254 = getelementptr inbounds float, ptr %v40, i64 6
  %v255 = load float, ptr %v254, align 4
  %v256 = insertelement <8 x float> poison, float %v255, i32 0
  %v257 = shufflevector <8 x float> %v256, <8 x float> poison, <8 x i32> zeroinitializer
  %v258 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v257, <8 x float> %v249, <8 x float> %v224)
  %v259 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v257, <8 x float> %v251, <8 x float> %v225)
  %v260 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v257, <8 x float> %v253, <8 x float> %v226)
  %v261 = getelementptr inbounds float, ptr %v41, i64 6
  %v262 = load float, ptr %v261, align 4
  %v263 = insertelement <8 x float> poison, float %v262, i32 0
  %v264 = shufflevector <8 x float> %v263, <8 x float> poison, <8 x i32> zeroinitializer
  %v265 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v264, <8 x float> %v249, <8 x float> %v231)
  %v266 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v264, <8 x float> %v251, <8 x float> %v232)
  %v267 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v264, <8 x float> %v253, <8 x float> %v233)
  %v268 = getelementptr inbounds float, ptr %v42, i64 6
  %v269 = load float, ptr %v268, align 4
  %v270 = insertelement <8 x float> poison, float %v269, i32 0
  %v271 = shufflevector <8 x float> %v270, <8 x float> poison, <8 x i32> zeroinitializer
  %v272 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v271, <8 x float> %v249, <8 x float> %v238)
  %v273 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v271, <8 x float> %v251, <8 x float> %v239)
  %v274 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v271, <8 x float> %v253, <8 x float> %v240)
  %v275 = getelementptr inbounds float, ptr %v43, i64 6
  %v276 = load float, ptr %v275, align 4
  %v277 = insertelement <8 x float> poison, float %v276, i32 0
  %v278 = shufflevector <8 x float> %v277, <8 x float> poison, <8 x i32> zeroinitializer
  %v279 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v278, <8 x float> %v249, <8 x float> %v245)
  %v280 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v278, <8 x float> %v251, <8 x float> %v246)
  %v281 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v278, <8 x float> %v253, <8 x float> %v247)
  %v282 = getelementptr inbounds float, ptr %v39, i64 168
  %v283 = load <8 x float>, ptr %v282, align 4
  %v284 = getelementptr inbounds float, ptr %v39, i64 176
  %v285 = load <8 x float>, ptr %v284, align 4
  %v286 = getelementptr inbounds float, ptr %v39, i64 184
  %v287 = load <8 x float>, ptr %v286, align 4
  %v288 = getelementptr inbounds float, ptr %v40, i64 7
  %v289 = load float, ptr %v288, align 4
  %v290 = insertelement <8 x float> poison, float %v289, i32 0
  %v291 = shufflevector <8 x float> %v290, <8 x float> poison, <8 x i32> zeroinitializer
  %v292 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v291, <8 x float> %v283, <8 x float> %v258)
  %v293 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v291, <8 x float> %v285, <8 x float> %v259)
  %v294 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v291, <8 x float> %v287, <8 x float> %v260)
  %v295 = getelementptr inbounds float, ptr %v41, i64 7
  %v296 = load float, ptr %v295, align 4
  %v297 = insertelement <8 x float> poison, float %v296, i32 0
  %v298 = shufflevector <8 x float> %v297, <8 x float> poison, <8 x i32> zeroinitializer
  %v299 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v298, <8 x float> %v283, <8 x float> %v265)
  %v300 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v298, <8 x float> %v285, <8 x float> %v266)
  %v301 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v298, <8 x float> %v287, <8 x float> %v267)
  %v302 = getelementptr inbounds float, ptr %v42, i64 7
  %v303 = load float, ptr %v302, align 4
  %v304 = insertelement <8 x float> poison, float %v303, i32 0
  %v305 = shufflevector <8 x float> %v304, <8 x float> poison, <8 x i32> zeroinitializer
  %v306 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v305, <8 x float> %v283, <8 x float> %v272)
  %v307 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v305, <8 x float> %v285, <8 x float> %v273)
  %v308 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v305, <8 x float> %v287, <8 x float> %v274)
  %v309 = getelementptr inbounds float, ptr %v43, i64 7
  %v310 = load float, ptr %v309, align 4
  %v311 = insertelement <8 x float> poison, float %v310, i32 0
  %v312 = shufflevector <8 x float> %v311, <8 x float> poison, <8 x i32> zeroinitializer
  %v313 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v312, <8 x float> %v283, <8 x float> %v279)
  %v314 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v312, <8 x float> %v285, <8 x float> %v280)
  %v315 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v312, <8 x float> %v287, <8 x float> %v281)
  br label %latch9
latch9:
  %carried14 = select i1 true, <8 x float> %v292, <8 x float> %v292
  %carried16 = select i1 true, <8 x float> %v293, <8 x float> %v293
  %carried18 = select i1 true, <8 x float> %v294, <8 x float> %v294
  %carried20 = select i1 true, <8 x float> %v299, <8 x float> %v299
  %carried22 = select i1 true, <8 x float> %v300, <8 x float> %v300
  %carried24 = select i1 true, <8 x float> %v301, <8 x float> %v301
  %carried26 = select i1 true, <8 x float> %v306, <8 x float> %v306
  %carried28 = select i1 true, <8 x float> %v307, <8 x float> %v307
  %carried30 = select i1 true, <8 x float> %v308, <8 x float> %v308
  %carried32 = select i1 true, <8 x float> %v313, <8 x float> %v313
  %carried34 = select i1 true, <8 x float> %v314, <8 x float> %v314
  %carried36 = select i1 true, <8 x float> %v315, <8 x float> %v315
  %inext12 = add i64 %i11, 8
  br label %head7
done10:
  br label %nomask318
nomask318:
  br i1 %masked, label %mask316, label %masked317
mask316:
  %v319 = trunc i64 %cols to i32
  %v320 = insertelement <8 x i32> poison, i32 %v319, i32 0
  %v321 = shufflevector <8 x i32> %v320, <8 x i32> poison, <8 x i32> zeroinitializer
  %v322 = trunc i64 %diff to i32
  %v323 = add i32 %v322, 0
  %v324 = insertelement <8 x i32> poison, i32 %v323, i32 0
  %v325 = shufflevector <8 x i32> %v324, <8 x i32> poison, <8 x i32> zeroinitializer
  %v326 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v321
  %v327 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v325
  %v328 = and <8 x i1> %v326, %v327
  %v329 = select <8 x i1> %v328, <8 x float> %carry13, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v330 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v321
  %v331 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v325
  %v332 = and <8 x i1> %v330, %v331
  %v333 = select <8 x i1> %v332, <8 x float> %carry15, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v334 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v321
  %v335 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v325
  %v336 = and <8 x i1> %v334, %v335
  %v337 = select <8 x i1> %v336, <8 x float> %carry17, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v338 = add i32 %v322, 1
  %v339 = insertelement <8 x i32> poison, i32 %v338, i32 0
  %v340 = shufflevector <8 x i32> %v339, <8 x i32> poison, <8 x i32> zeroinitializer
  %v341 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v321
  %v342 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v340
  %v343 = and <8 x i1> %v341, %v342
  %v344 = select <8 x i1> %v343, <8 x float> %carry19, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v345 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v321
  %v346 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v340
  %v347 = and <8 x i1> %v345, %v346
  %v348 = select <8 x i1> %v347, <8 x float> %carry21, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v349 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v321
  %v350 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v340
  %v351 = and <8 x i1> %v349, %v350
  %v352 = select <8 x i1> %v351, <8 x float> %carry23, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v353 = add i32 %v322, 2
  %v354 = insertelement <8 x i32> poison, i32 %v353, i32 0
  %v355 = shufflevector <8 x i32> %v354, <8 x i32> poison, <8 x i32> zeroinitializer
  %v356 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v321
  %v357 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v355
  %v358 = and <8 x i1> %v356, %v357
  %v359 = select <8 x i1> %v358, <8 x float> %carry25, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v360 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v321
  %v361 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v355
  %v362 = and <8 x i1> %v360, %v361
  %v363 = select <8 x i1> %v362, <8 x float> %carry27, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v364 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v321
  %v365 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v355
  %v366 = and <8 x i1> %v364, %v365
  %v367 = select <8 x i1> %v366, <8 x float> %carry29, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v368 = add i32 %v322, 3
  %v369 = insertelement <8 x i32> poison, i32 %v368, i32 0
  %v370 = shufflevector <8 x i32> %v369, <8 x i32> poison, <8 x i32> zeroinitializer
  %v371 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v321
  %v372 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v370
  %v373 = and <8 x i1> %v371, %v372
  %v374 = select <8 x i1> %v373, <8 x float> %carry31, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v375 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v321
  %v376 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v370
  %v377 = and <8 x i1> %v375, %v376
  %v378 = select <8 x i1> %v377, <8 x float> %carry33, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v379 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v321
  %v380 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v370
  %v381 = and <8 x i1> %v379, %v380
  %v382 = select <8 x i1> %v381, <8 x float> %carry35, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  br label %masked317
masked317:
  %v383 = phi <8 x float> [ %carry13, %nomask318 ], [ %v329, %mask316 ]
  %v384 = phi <8 x float> [ %carry15, %nomask318 ], [ %v333, %mask316 ]
  %v385 = phi <8 x float> [ %carry17, %nomask318 ], [ %v337, %mask316 ]
  %v386 = phi <8 x float> [ %carry19, %nomask318 ], [ %v344, %mask316 ]
  %v387 = phi <8 x float> [ %carry21, %nomask318 ], [ %v348, %mask316 ]
  %v388 = phi <8 x float> [ %carry23, %nomask318 ], [ %v352, %mask316 ]
  %v389 = phi <8 x float> [ %carry25, %nomask318 ], [ %v359, %mask316 ]
  %v390 = phi <8 x float> [ %carry27, %nomask318 ], [ %v363, %mask316 ]
  %v391 = phi <8 x float> [ %carry29, %nomask318 ], [ %v367, %mask316 ]
  %v392 = phi <8 x float> [ %carry31, %nomask318 ], [ %v374, %mask316 ]
  %v393 = phi <8 x float> [ %carry33, %nomask318 ], [ %v378, %mask316 ]
  %v394 = phi <8 x float> [ %carry35, %nomask318 ], [ %v382, %mask316 ]
  %v395 = fmul float %scale, 0x3FF7154760000000
  %v396 = insertelement <8 x float> poison, float %v395, i32 0
  %v397 = shufflevector <8 x float> %v396, <8 x float> poison, <8 x i32> zeroinitializer
  %v398 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v383, <8 x float> %v384)
  %v399 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v398, <8 x float> %v385)
  %v400 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v399)
  %v401 = fmul float %v400, %scale
  %v402 = getelementptr inbounds float, ptr %state, i64 0
  %v403 = load float, ptr %v402, align 4
  %v404 = call float @llvm.maxnum.f32(float %v403, float %v401)
  %v405 = fcmp oeq float %v404, 0xFFF0000000000000
  %v406 = select i1 %v405, float 0x0000000000000000, float %v404
  %v407 = fmul float %v406, 0xBFF7154760000000
  %v408 = insertelement <8 x float> poison, float %v407, i32 0
  %v409 = shufflevector <8 x float> %v408, <8 x float> poison, <8 x i32> zeroinitializer
  %v410 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v383, <8 x float> %v397, <8 x float> %v409)
  %v411 = call <8 x float> @exp2_8(<8 x float> %v410)
  %v412 = getelementptr inbounds float, ptr %slot1, i64 0
  store <8 x float> %v411, ptr %v412, align 4
  %v413 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v384, <8 x float> %v397, <8 x float> %v409)
  %v414 = call <8 x float> @exp2_8(<8 x float> %v413)
  %v415 = getelementptr inbounds float, ptr %slot1, i64 8
  store <8 x float> %v414, ptr %v415, align 4
  %v416 = fadd <8 x float> %v411, %v414
  %v417 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v385, <8 x float> %v397, <8 x float> %v409)
  %v418 = call <8 x float> @exp2_8(<8 x float> %v417)
  %v419 = getelementptr inbounds float, ptr %slot1, i64 16
  store <8 x float> %v418, ptr %v419, align 4
  %v420 = fadd <8 x float> %v416, %v418
  %v421 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v420)
  %v422 = fsub float %v403, %v406
  %v423 = fmul float %v422, 0x3FF7154760000000
  %v424 = fcmp une float %v404, %v403
  %v425 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v386, <8 x float> %v387)
  %v426 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v425, <8 x float> %v388)
  %v427 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v426)
  %v428 = fmul float %v427, %scale
  %v429 = getelementptr inbounds float, ptr %state, i64 10
  %v430 = load float, ptr %v429, align 4
  %v431 = call float @llvm.maxnum.f32(float %v430, float %v428)
  %v432 = fcmp oeq float %v431, 0xFFF0000000000000
  %v433 = select i1 %v432, float 0x0000000000000000, float %v431
  %v434 = fmul float %v433, 0xBFF7154760000000
  %v435 = insertelement <8 x float> poison, float %v434, i32 0
  %v436 = shufflevector <8 x float> %v435, <8 x float> poison, <8 x i32> zeroinitializer
  %v437 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v386, <8 x float> %v397, <8 x float> %v436)
  %v438 = call <8 x float> @exp2_8(<8 x float> %v437)
  %v439 = getelementptr inbounds float, ptr %slot1, i64 24
  store <8 x float> %v438, ptr %v439, align 4
  %v440 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v387, <8 x float> %v397, <8 x float> %v436)
  %v441 = call <8 x float> @exp2_8(<8 x float> %v440)
  %v442 = getelementptr inbounds float, ptr %slot1, i64 32
  store <8 x float> %v441, ptr %v442, align 4
  %v443 = fadd <8 x float> %v438, %v441
  %v444 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v388, <8 x float> %v397, <8 x float> %v436)
  %v445 = call <8 x float> @exp2_8(<8 x float> %v444)
  %v446 = getelementptr inbounds float, ptr %slot1, i64 40
  store <8 x float> %v445, ptr %v446, align 4
  %v447 = fadd <8 x float> %v443, %v445
  %v448 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v447)
  %v449 = fsub float %v430, %v433
  %v450 = fmul float %v449, 0x3FF7154760000000
  %v451 = fcmp une float %v431, %v430
  %v452 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v389, <8 x float> %v390)
  %v453 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v452, <8 x float> %v391)
  %v454 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v453)
  %v455 = fmul float %v454, %scale
  %v456 = getelementptr inbounds float, ptr %state, i64 20
  %v457 = load float, ptr %v456, align 4
  %v458 = call float @llvm.maxnum.f32(float %v457, float %v455)
  %v459 = fcmp oeq float %v458, 0xFFF0000000000000
  %v460 = select i1 %v459, float 0x0000000000000000, float %v458
  %v461 = fmul float %v460, 0xBFF7154760000000
  %v462 = insertelement <8 x float> poison, float %v461, i32 0
  %v463 = shufflevector <8 x float> %v462, <8 x float> poison, <8 x i32> zeroinitializer
  %v464 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v389, <8 x float> %v397, <8 x float> %v463)
  %v465 = call <8 x float> @exp2_8(<8 x float> %v464)
  %v466 = getelementptr inbounds float, ptr %slot1, i64 48
  store <8 x float> %v465, ptr %v466, align 4
  %v467 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v390, <8 x float> %v397, <8 x float> %v463)
  %v468 = call <8 x float> @exp2_8(<8 x float> %v467)
  %v469 = getelementptr inbounds float, ptr %slot1, i64 56
  store <8 x float> %v468, ptr %v469, align 4
  %v470 = fadd <8 x float> %v465, %v468
  %v471 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v391, <8 x float> %v397, <8 x float> %v463)
  %v472 = call <8 x float> @exp2_8(<8 x float> %v471)
  %v473 = getelementptr inbounds float, ptr %slot1, i64 64
  store <8 x float> %v472, ptr %v473, align 4
  %v474 = fadd <8 x float> %v470, %v472
  %v475 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v474)
  %v476 = fsub float %v457, %v460
  %v477 = fmul float %v476, 0x3FF7154760000000
  %v478 = fcmp une float %v458, %v457
  %v479 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v392, <8 x float> %v393)
  %v480 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v479, <8 x float> %v394)
  %v481 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v480)
  %v482 = fmul float %v481, %scale
  %v483 = getelementptr inbounds float, ptr %state, i64 30
  %v484 = load float, ptr %v483, align 4
  %v485 = call float @llvm.maxnum.f32(float %v484, float %v482)
  %v486 = fcmp oeq float %v485, 0xFFF0000000000000
  %v487 = select i1 %v486, float 0x0000000000000000, float %v485
  %v488 = fmul float %v487, 0xBFF7154760000000
  %v489 = insertelement <8 x float> poison, float %v488, i32 0
  %v490 = shufflevector <8 x float> %v489, <8 x float> poison, <8 x i32> zeroinitializer
  %v491 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v392, <8 x float> %v397, <8 x float> %v490)
  %v492 = call <8 x float> @exp2_8(<8 x float> %v491)
  %v493 = getelementptr inbounds float, ptr %slot1, i64 72
  store <8 x float> %v492, ptr %v493, align 4
  %v494 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v393, <8 x float> %v397, <8 x float> %v490)
  %v495 = call <8 x float> @exp2_8(<8 x float> %v494)
  %v496 = getelementptr inbounds float, ptr %slot1, i64 80
  store <8 x float> %v495, ptr %v496, align 4
  %v497 = fadd <8 x float> %v492, %v495
  %v498 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v394, <8 x float> %v397, <8 x float> %v490)
  %v499 = call <8 x float> @exp2_8(<8 x float> %v498)
  %v500 = getelementptr inbounds float, ptr %slot1, i64 88
  store <8 x float> %v499, ptr %v500, align 4
  %v501 = fadd <8 x float> %v497, %v499
  %v502 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v501)
  %v503 = fsub float %v484, %v487
  %v504 = fmul float %v503, 0x3FF7154760000000
  %v505 = fcmp une float %v485, %v484
  %v506 = insertelement <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, float %v423, i32 0
  %v507 = insertelement <8 x float> %v506, float %v450, i32 1
  %v508 = insertelement <8 x float> %v507, float %v477, i32 2
  %v509 = insertelement <8 x float> %v508, float %v504, i32 3
  %v510 = call <8 x float> @exp2_8(<8 x float> %v509)
  %v511 = extractelement <8 x float> %v510, i32 0
  %v512 = getelementptr inbounds float, ptr %state, i64 1
  %v513 = load float, ptr %v512, align 4
  %v514 = call float @llvm.fma.f32(float %v513, float %v511, float %v421)
  store float %v514, ptr %v512, align 4
  %v515 = getelementptr inbounds float, ptr %state, i64 0
  store float %v404, ptr %v515, align 4
  %v516 = insertelement <8 x float> poison, float %v511, i32 0
  %v517 = shufflevector <8 x float> %v516, <8 x float> poison, <8 x i32> zeroinitializer
  %v518 = or i1 false, %v424
  %v519 = extractelement <8 x float> %v510, i32 1
  %v520 = getelementptr inbounds float, ptr %state, i64 11
  %v521 = load float, ptr %v520, align 4
  %v522 = call float @llvm.fma.f32(float %v521, float %v519, float %v448)
  store float %v522, ptr %v520, align 4
  %v523 = getelementptr inbounds float, ptr %state, i64 10
  store float %v431, ptr %v523, align 4
  %v524 = insertelement <8 x float> poison, float %v519, i32 0
  %v525 = shufflevector <8 x float> %v524, <8 x float> poison, <8 x i32> zeroinitializer
  %v526 = or i1 %v518, %v451
  %v527 = extractelement <8 x float> %v510, i32 2
  %v528 = getelementptr inbounds float, ptr %state, i64 21
  %v529 = load float, ptr %v528, align 4
  %v530 = call float @llvm.fma.f32(float %v529, float %v527, float %v475)
  store float %v530, ptr %v528, align 4
  %v531 = getelementptr inbounds float, ptr %state, i64 20
  store float %v458, ptr %v531, align 4
  %v532 = insertelement <8 x float> poison, float %v527, i32 0
  %v533 = shufflevector <8 x float> %v532, <8 x float> poison, <8 x i32> zeroinitializer
  %v534 = or i1 %v526, %v478
  %v535 = extractelement <8 x float> %v510, i32 3
  %v536 = getelementptr inbounds float, ptr %state, i64 31
  %v537 = load float, ptr %v536, align 4
  %v538 = call float @llvm.fma.f32(float %v537, float %v535, float %v502)
  store float %v538, ptr %v536, align 4
  %v539 = getelementptr inbounds float, ptr %state, i64 30
  store float %v485, ptr %v539, align 4
  %v540 = insertelement <8 x float> poison, float %v535, i32 0
  %v541 = shufflevector <8 x float> %v540, <8 x float> poison, <8 x i32> zeroinitializer
  %v542 = or i1 %v534, %v505
  %v543 = sdiv i64 %cols, 4
  %v544 = mul i64 %v543, 4
  br i1 %v542, label %pv_scaled545, label %pv_plain546
pv_scaled545:
  %v548 = getelementptr inbounds float, ptr %state, i64 2
  %v549 = load <8 x float>, ptr %v548, align 4
  %v550 = fmul <8 x float> %v549, %v517
  %v551 = getelementptr inbounds float, ptr %state, i64 12
  %v552 = load <8 x float>, ptr %v551, align 4
  %v553 = fmul <8 x float> %v552, %v525
  %v554 = getelementptr inbounds float, ptr %state, i64 22
  %v555 = load <8 x float>, ptr %v554, align 4
  %v556 = fmul <8 x float> %v555, %v533
  %v557 = getelementptr inbounds float, ptr %state, i64 32
  %v558 = load <8 x float>, ptr %v557, align 4
  %v559 = fmul <8 x float> %v558, %v541
  br label %pre560
pre560:
  br label %head561
head561:
  %i565 = phi i64 [ 0, %pre560 ], [ %inext566, %latch563 ]
  %carry567 = phi <8 x float> [ %v550, %pre560 ], [ %carried568, %latch563 ]
  %carry569 = phi <8 x float> [ %v553, %pre560 ], [ %carried570, %latch563 ]
  %carry571 = phi <8 x float> [ %v556, %pre560 ], [ %carried572, %latch563 ]
  %carry573 = phi <8 x float> [ %v559, %pre560 ], [ %carried574, %latch563 ]
  %v575 = icmp slt i64 %i565, %v544
  br i1 %v575, label %body562, label %done564
body562:
  %v576 = add i64 %i565, 0
  %v577 = mul i64 %v576, 8
  %v578 = add i64 %v577, 0
  %v579 = getelementptr inbounds float, ptr %v, i64 %v578
  %v580 = load <8 x float>, ptr %v579, align 4
  %v581 = add i64 %v576, 0
  %v582 = getelementptr inbounds float, ptr %slot1, i64 %v581
  %v583 = load float, ptr %v582, align 4
  %v584 = insertelement <8 x float> poison, float %v583, i32 0
  %v585 = shufflevector <8 x float> %v584, <8 x float> poison, <8 x i32> zeroinitializer
  %v586 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v585, <8 x float> %v580, <8 x float> %carry567)
  %v587 = add i64 %v576, 24
  %v588 = getelementptr inbounds float, ptr %slot1, i64 %v587
  %v589 = load float, ptr %v588, align 4
  %v590 = insertelement <8 x float> poison, float %v589, i32 0
  %v591 = shufflevector <8 x float> %v590, <8 x float> poison, <8 x i32> zeroinitializer
  %v592 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v591, <8 x float> %v580, <8 x float> %carry569)
  %v593 = add i64 %v576, 48
  %v594 = getelementptr inbounds float, ptr %slot1, i64 %v593
  %v595 = load float, ptr %v594, align 4
  %v596 = insertelement <8 x float> poison, float %v595, i32 0
  %v597 = shufflevector <8 x float> %v596, <8 x float> poison, <8 x i32> zeroinitializer
  %v598 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v597, <8 x float> %v580, <8 x float> %carry571)
  %v599 = add i64 %v576, 72
  %v600 = getelementptr inbounds float, ptr %slot1, i64 %v599
  %v601 = load float, ptr %v600, align 4
  %v602 = insertelement <8 x float> poison, float %v601, i32 0
  %v603 = shufflevector <8 x float> %v602, <8 x float> poison, <8 x i32> zeroinitializer
  %v604 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v603, <8 x float> %v580, <8 x float> %carry573)
  %v605 = add i64 %i565, 1
  %v606 = mul i64 %v605, 8
  %v607 = add i64 %v606, 0
  %v608 = getelementptr inbounds float, ptr %v, i64 %v607
  %v609 = load <8 x float>, ptr %v608, align 4
  %v610 = add i64 %v605, 0
  %v611 = getelementptr inbounds float, ptr %slot1, i64 %v610
  %v612 = load float, ptr %v611, align 4
  %v613 = insertelement <8 x float> poison, float %v612, i32 0
  %v614 = shufflevector <8 x float> %v613, <8 x float> poison, <8 x i32> zeroinitializer
  %v615 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v614, <8 x float> %v609, <8 x float> %v586)
  %v616 = add i64 %v605, 24
  %v617 = getelementptr inbounds float, ptr %slot1, i64 %v616
  %v618 = load float, ptr %v617, align 4
  %v619 = insertelement <8 x float> poison, float %v618, i32 0
  %v620 = shufflevector <8 x float> %v619, <8 x float> poison, <8 x i32> zeroinitializer
  %v621 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v620, <8 x float> %v609, <8 x float> %v592)
  %v622 = add i64 %v605, 48
  %v623 = getelementptr inbounds float, ptr %slot1, i64 %v622
  %v624 = load float, ptr %v623, align 4
  %v625 = insertelement <8 x float> poison, float %v624, i32 0
  %v626 = shufflevector <8 x float> %v625, <8 x float> poison, <8 x i32> zeroinitializer
  %v627 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v626, <8 x float> %v609, <8 x float> %v598)
  %v628 = add i64 %v605, 72
  %v629 = getelementptr inbounds float, ptr %slot1, i64 %v628
  %v630 = load float, ptr %v629, align 4
  %v631 = insertelement <8 x float> poison, float %v630, i32 0
  %v632 = shufflevector <8 x float> %v631, <8 x float> poison, <8 x i32> zeroinitializer
  %v633 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v632, <8 x float> %v609, <8 x float> %v604)
  %v634 = add i64 %i565, 2
  %v635 = mul i64 %v634, 8
  %v636 = add i64 %v635, 0
  %v637 = getelementptr inbounds float, ptr %v, i64 %v636
  %v638 = load <8 x float>, ptr %v637, align 4
  %v639 = add i64 %v634, 0
  %v640 = getelementptr inbounds float, ptr %slot1, i64 %v639
  %v641 = load float, ptr %v640, align 4
  %v642 = insertelement <8 x float> poison, float %v641, i32 0
  %v643 = shufflevector <8 x float> %v642, <8 x float> poison, <8 x i32> zeroinitializer
  %v644 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v643, <8 x float> %v638, <8 x float> %v615)
  %v645 = add i64 %v634, 24
  %v646 = getelementptr inbounds float, ptr %slot1, i64 %v645
  %v647 = load float, ptr %v646, align 4
  %v648 = insertelement <8 x float> poison, float %v647, i32 0
  %v649 = shufflevector <8 x float> %v648, <8 x float> poison, <8 x i32> zeroinitializer
  %v650 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v649, <8 x float> %v638, <8 x float> %v621)
  %v651 = add i64 %v634, 48
  %v652 = getelementptr inbounds float, ptr %slot1, i64 %v651
  %v653 = load float, ptr %v652, align 4
  %v654 = insertelement <8 x float> poison, float %v653, i32 0
  %v655 = shufflevector <8 x float> %v654, <8 x float> poison, <8 x i32> zeroinitializer
  %v656 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v655, <8 x float> %v638, <8 x float> %v627)
  %v657 = add i64 %v634, 72
  %v658 = getelementptr inbounds float, ptr %slot1, i64 %v657
  %v659 = load float, ptr %v658, align 4
  %v660 = insertelement <8 x float> poison, float %v659, i32 0
  %v661 = shufflevector <8 x float> %v660, <8 x float> poison, <8 x i32> zeroinitializer
  %v662 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v661, <8 x float> %v638, <8 x float> %v633)
  %v663 = add i64 %i565, 3
  %v664 = mul i64 %v663, 8
  %v665 = add i64 %v664, 0
  %v666 = getelementptr inbounds float, ptr %v, i64 %v665
  %v667 = load <8 x float>, ptr %v666, align 4
  %v668 = add i64 %v663, 0
  %v669 = getelementptr inbounds float, ptr %slot1, i64 %v668
  %v670 = load float, ptr %v669, align 4
  %v671 = insertelement <8 x float> poison, float %v670, i32 0
  %v672 = shufflevector <8 x float> %v671, <8 x float> poison, <8 x i32> zeroinitializer
  %v673 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v672, <8 x float> %v667, <8 x float> %v644)
  %v674 = add i64 %v663, 24
  %v675 = getelementptr inbounds float, ptr %slot1, i64 %v674
  %v676 = load float, ptr %v675, align 4
  %v677 = insertelement <8 x float> poison, float %v676, i32 0
  %v678 = shufflevector <8 x float> %v677, <8 x float> poison, <8 x i32> zeroinitializer
  %v679 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v678, <8 x float> %v667, <8 x float> %v650)
  %v680 = add i64 %v663, 48
  %v681 = getelementptr inbounds float, ptr %slot1, i64 %v680
  %v682 = load float, ptr %v681, align 4
  %v683 = insertelement <8 x float> poison, float %v682, i32 0
  %v684 = shufflevector <8 x float> %v683, <8 x float> poison, <8 x i32> zeroinitializer
  %v685 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v684, <8 x float> %v667, <8 x float> %v656)
  %v686 = add i64 %v663, 72
  %v687 = getelementptr inbounds float, ptr %slot1, i64 %v686
  %v688 = load float, ptr %v687, align 4
  %v689 = insertelement <8 x float> poison, float %v688, i32 0
  %v690 = shufflevector <8 x float> %v689, <8 x float> poison, <8 x i32> zeroinitializer
  %v691 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v690, <8 x float> %v667, <8 x float> %v662)
  br label %latch563
latch563:
  %carried568 = select i1 true, <8 x float> %v673, <8 x float> %v673
  %carried570 = select i1 true, <8 x float> %v679, <8 x float> %v679
  %carried572 = select i1 true, <8 x float> %v685, <8 x float> %v685
  %carried574 = select i1 true, <8 x float> %v691, <8 x float> %v691
  %inext566 = add i64 %i565, 4
  br label %head561
done564:
  br label %pre692
pre692:
  br label %head693
head693:
  %i697 = phi i64 [ %v544, %pre692 ], [ %inext698, %latch695 ]
  %carry699 = phi <8 x float> [ %carry567, %pre692 ], [ %carried700, %latch695 ]
  %carry701 = phi <8 x float> [ %carry569, %pre692 ], [ %carried702, %latch695 ]
  %carry703 = phi <8 x float> [ %carry571, %pre692 ], [ %carried704, %latch695 ]
  %carry705 = phi <8 x float> [ %carry573, %pre692 ], [ %carried706, %latch695 ]
  %v707 = icmp slt i64 %i697, %cols
  br i1 %v707, label %body694, label %done696
body694:
  %v708 = mul i64 %i697, 8
  %v709 = add i64 %v708, 0
  %v710 = getelementptr inbounds float, ptr %v, i64 %v709
  %v711 = load <8 x float>, ptr %v710, align 4
  %v712 = add i64 %i697, 0
  %v713 = getelementptr inbounds float, ptr %slot1, i64 %v712
  %v714 = load float, ptr %v713, align 4
  %v715 = insertelement <8 x float> poison, float %v714, i32 0
  %v716 = shufflevector <8 x float> %v715, <8 x float> poison, <8 x i32> zeroinitializer
  %v717 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v716, <8 x float> %v711, <8 x float> %carry699)
  %v718 = add i64 %i697, 24
  %v719 = getelementptr inbounds float, ptr %slot1, i64 %v718
  %v720 = load float, ptr %v719, align 4
  %v721 = insertelement <8 x float> poison, float %v720, i32 0
  %v722 = shufflevector <8 x float> %v721, <8 x float> poison, <8 x i32> zeroinitializer
  %v723 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v722, <8 x float> %v711, <8 x float> %carry701)
  %v724 = add i64 %i697, 48
  %v725 = getelementptr inbounds float, ptr %slot1, i64 %v724
  %v726 = load float, ptr %v725, align 4
  %v727 = insertelement <8 x float> poison, float %v726, i32 0
  %v728 = shufflevector <8 x float> %v727, <8 x float> poison, <8 x i32> zeroinitializer
  %v729 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v728, <8 x float> %v711, <8 x float> %carry703)
  %v730 = add i64 %i697, 72
  %v731 = getelementptr inbounds float, ptr %slot1, i64 %v730
  %v732 = load float, ptr %v731, align 4
  %v733 = insertelement <8 x float> poison, float %v732, i32 0
  %v734 = shufflevector <8 x float> %v733, <8 x float> poison, <8 x i32> zeroinitializer
  %v735 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v734, <8 x float> %v711, <8 x float> %carry705)
  br label %latch695
latch695:
  %carried700 = select i1 true, <8 x float> %v717, <8 x float> %v717
  %carried702 = select i1 true, <8 x float> %v723, <8 x float> %v723
  %carried704 = select i1 true, <8 x float> %v729, <8 x float> %v729
  %carried706 = select i1 true, <8 x float> %v735, <8 x float> %v735
  %inext698 = add i64 %i697, 1
  br label %head693
done696:
  %v736 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry699, ptr %v736, align 4
  %v737 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry701, ptr %v737, align 4
  %v738 = getelementptr inbounds float, ptr %state, i64 22
  store <8 x float> %carry703, ptr %v738, align 4
  %v739 = getelementptr inbounds float, ptr %state, i64 32
  store <8 x float> %carry705, ptr %v739, align 4
  br label %pv_done547
pv_plain546:
  %v740 = getelementptr inbounds float, ptr %state, i64 2
  %v741 = load <8 x float>, ptr %v740, align 4
  %v742 = getelementptr inbounds float, ptr %state, i64 12
  %v743 = load <8 x float>, ptr %v742, align 4
  %v744 = getelementptr inbounds float, ptr %state, i64 22
  %v745 = load <8 x float>, ptr %v744, align 4
  %v746 = getelementptr inbounds float, ptr %state, i64 32
  %v747 = load <8 x float>, ptr %v746, align 4
  br label %pre748
pre748:
  br label %head749
head749:
  %i753 = phi i64 [ 0, %pre748 ], [ %inext754, %latch751 ]
  %carry755 = phi <8 x float> [ %v741, %pre748 ], [ %carried756, %latch751 ]
  %carry757 = phi <8 x float> [ %v743, %pre748 ], [ %carried758, %latch751 ]
  %carry759 = phi <8 x float> [ %v745, %pre748 ], [ %carried760, %latch751 ]
  %carry761 = phi <8 x float> [ %v747, %pre748 ], [ %carried762, %latch751 ]
  %v763 = icmp slt i64 %i753, %v544
  br i1 %v763, label %body750, label %done752
body750:
  %v764 = add i64 %i753, 0
  %v765 = mul i64 %v764, 8
  %v766 = add i64 %v765, 0
  %v767 = getelementptr inbounds float, ptr %v, i64 %v766
  %v768 = load <8 x float>, ptr %v767, align 4
  %v769 = add i64 %v764, 0
  %v770 = getelementptr inbounds float, ptr %slot1, i64 %v769
  %v771 = load float, ptr %v770, align 4
  %v772 = insertelement <8 x float> poison, float %v771, i32 0
  %v773 = shufflevector <8 x float> %v772, <8 x float> poison, <8 x i32> zeroinitializer
  %v774 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v773, <8 x float> %v768, <8 x float> %carry755)
  %v775 = add i64 %v764, 24
  %v776 = getelementptr inbounds float, ptr %slot1, i64 %v775
  %v777 = load float, ptr %v776, align 4
  %v778 = insertelement <8 x float> poison, float %v777, i32 0
  %v779 = shufflevector <8 x float> %v778, <8 x float> poison, <8 x i32> zeroinitializer
  %v780 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v779, <8 x float> %v768, <8 x float> %carry757)
  %v781 = add i64 %v764, 48
  %v782 = getelementptr inbounds float, ptr %slot1, i64 %v781
  %v783 = load float, ptr %v782, align 4
  %v784 = insertelement <8 x float> poison, float %v783, i32 0
  %v785 = shufflevector <8 x float> %v784, <8 x float> poison, <8 x i32> zeroinitializer
  %v786 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v785, <8 x float> %v768, <8 x float> %carry759)
  %v787 = add i64 %v764, 72
  %v788 = getelementptr inbounds float, ptr %slot1, i64 %v787
  %v789 = load float, ptr %v788, align 4
  %v790 = insertelement <8 x float> poison, float %v789, i32 0
  %v791 = shufflevector <8 x float> %v790, <8 x float> poison, <8 x i32> zeroinitializer
  %v792 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v791, <8 x float> %v768, <8 x float> %carry761)
  %v793 = add i64 %i753, 1
  %v794 = mul i64 %v793, 8
  %v795 = add i64 %v794, 0
  %v796 = getelementptr inbounds float, ptr %v, i64 %v795
  %v797 = load <8 x float>, ptr %v796, align 4
  %v798 = add i64 %v793, 0
  %v799 = getelementptr inbounds float, ptr %slot1, i64 %v798
  %v800 = load float, ptr %v799, align 4
  %v801 = insertelement <8 x float> poison, float %v800, i32 0
  %v802 = shufflevector <8 x float> %v801, <8 x float> poison, <8 x i32> zeroinitializer
  %v803 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v802, <8 x float> %v797, <8 x float> %v774)
  %v804 = add i64 %v793, 24
  %v805 = getelementptr inbounds float, ptr %slot1, i64 %v804
  %v806 = load float, ptr %v805, align 4
  %v807 = insertelement <8 x float> poison, float %v806, i32 0
  %v808 = shufflevector <8 x float> %v807, <8 x float> poison, <8 x i32> zeroinitializer
  %v809 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v808, <8 x float> %v797, <8 x float> %v780)
  %v810 = add i64 %v793, 48
  %v811 = getelementptr inbounds float, ptr %slot1, i64 %v810
  %v812 = load float, ptr %v811, align 4
  %v813 = insertelement <8 x float> poison, float %v812, i32 0
  %v814 = shufflevector <8 x float> %v813, <8 x float> poison, <8 x i32> zeroinitializer
  %v815 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v814, <8 x float> %v797, <8 x float> %v786)
  %v816 = add i64 %v793, 72
  %v817 = getelementptr inbounds float, ptr %slot1, i64 %v816
  %v818 = load float, ptr %v817, align 4
  %v819 = insertelement <8 x float> poison, float %v818, i32 0
  %v820 = shufflevector <8 x float> %v819, <8 x float> poison, <8 x i32> zeroinitializer
  %v821 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v820, <8 x float> %v797, <8 x float> %v792)
  %v822 = add i64 %i753, 2
  %v823 = mul i64 %v822, 8
  %v824 = add i64 %v823, 0
  %v825 = getelementptr inbounds float, ptr %v, i64 %v824
  %v826 = load <8 x float>, ptr %v825, align 4
  %v827 = add i64 %v822, 0
  %v828 = getelementptr inbounds float, ptr %slot1, i64 %v827
  %v829 = load float, ptr %v828, align 4
  %v830 = insertelement <8 x float> poison, float %v829, i32 0
  %v831 = shufflevector <8 x float> %v830, <8 x float> poison, <8 x i32> zeroinitializer
  %v832 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v831, <8 x float> %v826, <8 x float> %v803)
  %v833 = add i64 %v822, 24
  %v834 = getelementptr inbounds float, ptr %slot1, i64 %v833
  %v835 = load float, ptr %v834, align 4
  %v836 = insertelement <8 x float> poison, float %v835, i32 0
  %v837 = shufflevector <8 x float> %v836, <8 x float> poison, <8 x i32> zeroinitializer
  %v838 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v837, <8 x float> %v826, <8 x float> %v809)
  %v839 = add i64 %v822, 48
  %v840 = getelementptr inbounds float, ptr %slot1, i64 %v839
  %v841 = load float, ptr %v840, align 4
  %v842 = insertelement <8 x float> poison, float %v841, i32 0
  %v843 = shufflevector <8 x float> %v842, <8 x float> poison, <8 x i32> zeroinitializer
  %v844 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v843, <8 x float> %v826, <8 x float> %v815)
  %v845 = add i64 %v822, 72
  %v846 = getelementptr inbounds float, ptr %slot1, i64 %v845
  %v847 = load float, ptr %v846, align 4
  %v848 = insertelement <8 x float> poison, float %v847, i32 0
  %v849 = shufflevector <8 x float> %v848, <8 x float> poison, <8 x i32> zeroinitializer
  %v850 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v849, <8 x float> %v826, <8 x float> %v821)
  %v851 = add i64 %i753, 3
  %v852 = mul i64 %v851, 8
  %v853 = add i64 %v852, 0
  %v854 = getelementptr inbounds float, ptr %v, i64 %v853
  %v855 = load <8 x float>, ptr %v854, align 4
  %v856 = add i64 %v851, 0
  %v857 = getelementptr inbounds float, ptr %slot1, i64 %v856
  %v858 = load float, ptr %v857, align 4
  %v859 = insertelement <8 x float> poison, float %v858, i32 0
  %v860 = shufflevector <8 x float> %v859, <8 x float> poison, <8 x i32> zeroinitializer
  %v861 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v860, <8 x float> %v855, <8 x float> %v832)
  %v862 = add i64 %v851, 24
  %v863 = getelementptr inbounds float, ptr %slot1, i64 %v862
  %v864 = load float, ptr %v863, align 4
  %v865 = insertelement <8 x float> poison, float %v864, i32 0
  %v866 = shufflevector <8 x float> %v865, <8 x float> poison, <8 x i32> zeroinitializer
  %v867 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v866, <8 x float> %v855, <8 x float> %v838)
  %v868 = add i64 %v851, 48
  %v869 = getelementptr inbounds float, ptr %slot1, i64 %v868
  %v870 = load float, ptr %v869, align 4
  %v871 = insertelement <8 x float> poison, float %v870, i32 0
  %v872 = shufflevector <8 x float> %v871, <8 x float> poison, <8 x i32> zeroinitializer
  %v873 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v872, <8 x float> %v855, <8 x float> %v844)
  %v874 = add i64 %v851, 72
  %v875 = getelementptr inbounds float, ptr %slot1, i64 %v874
  %v876 = load float, ptr %v875, align 4
  %v877 = insertelement <8 x float> poison, float %v876, i32 0
  %v878 = shufflevector <8 x float> %v877, <8 x float> poison, <8 x i32> zeroinitializer
  %v879 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v878, <8 x float> %v855, <8 x float> %v850)
  br label %latch751
latch751:
  %carried756 = select i1 true, <8 x float> %v861, <8 x float> %v861
  %carried758 = select i1 true, <8 x float> %v867, <8 x float> %v867
  %carried760 = select i1 true, <8 x float> %v873, <8 x float> %v873
  %carried762 = select i1 true, <8 x float> %v879, <8 x float> %v879
  %inext754 = add i64 %i753, 4
  br label %head749
done752:
  br label %pre880
pre880:
  br label %head881
head881:
  %i885 = phi i64 [ %v544, %pre880 ], [ %inext886, %latch883 ]
  %carry887 = phi <8 x float> [ %carry755, %pre880 ], [ %carried888, %latch883 ]
  %carry889 = phi <8 x float> [ %carry757, %pre880 ], [ %carried890, %latch883 ]
  %carry891 = phi <8 x float> [ %carry759, %pre880 ], [ %carried892, %latch883 ]
  %carry893 = phi <8 x float> [ %carry761, %pre880 ], [ %carried894, %latch883 ]
  %v895 = icmp slt i64 %i885, %cols
  br i1 %v895, label %body882, label %done884
body882:
  %v896 = mul i64 %i885, 8
  %v897 = add i64 %v896, 0
  %v898 = getelementptr inbounds float, ptr %v, i64 %v897
  %v899 = load <8 x float>, ptr %v898, align 4
  %v900 = add i64 %i885, 0
  %v901 = getelementptr inbounds float, ptr %slot1, i64 %v900
  %v902 = load float, ptr %v901, align 4
  %v903 = insertelement <8 x float> poison, float %v902, i32 0
  %v904 = shufflevector <8 x float> %v903, <8 x float> poison, <8 x i32> zeroinitializer
  %v905 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v904, <8 x float> %v899, <8 x float> %carry887)
  %v906 = add i64 %i885, 24
  %v907 = getelementptr inbounds float, ptr %slot1, i64 %v906
  %v908 = load float, ptr %v907, align 4
  %v909 = insertelement <8 x float> poison, float %v908, i32 0
  %v910 = shufflevector <8 x float> %v909, <8 x float> poison, <8 x i32> zeroinitializer
  %v911 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v910, <8 x float> %v899, <8 x float> %carry889)
  %v912 = add i64 %i885, 48
  %v913 = getelementptr inbounds float, ptr %slot1, i64 %v912
  %v914 = load float, ptr %v913, align 4
  %v915 = insertelement <8 x float> poison, float %v914, i32 0
  %v916 = shufflevector <8 x float> %v915, <8 x float> poison, <8 x i32> zeroinitializer
  %v917 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v916, <8 x float> %v899, <8 x float> %carry891)
  %v918 = add i64 %i885, 72
  %v919 = getelementptr inbounds float, ptr %slot1, i64 %v918
  %v920 = load float, ptr %v919, align 4
  %v921 = insertelement <8 x float> poison, float %v920, i32 0
  %v922 = shufflevector <8 x float> %v921, <8 x float> poison, <8 x i32> zeroinitializer
  %v923 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v922, <8 x float> %v899, <8 x float> %carry893)
  br label %latch883
latch883:
  %carried888 = select i1 true, <8 x float> %v905, <8 x float> %v905
  %carried890 = select i1 true, <8 x float> %v911, <8 x float> %v911
  %carried892 = select i1 true, <8 x float> %v917, <8 x float> %v917
  %carried894 = select i1 true, <8 x float> %v923, <8 x float> %v923
  %inext886 = add i64 %i885, 1
  br label %head881
done884:
  %v924 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry887, ptr %v924, align 4
  %v925 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry889, ptr %v925, align 4
  %v926 = getelementptr inbounds float, ptr %state, i64 22
  store <8 x float> %carry891, ptr %v926, align 4
  %v927 = getelementptr inbounds float, ptr %state, i64 32
  store <8 x float> %carry893, ptr %v927, align 4
  br label %pv_done547
pv_done547:
  ret void
}

define internal void @tile2(ptr noalias %q, ptr noalias %state, ptr noalias %kt, ptr noalias %v, i64 %cols, i64 %diff, i1 %masked, float %scale) "target-cpu"="x86-64-v3" "target-features"="+avx2,+fma" nounwind {
entry:
  %slot1 = alloca [48 x float], align 32
  %v2 = getelementptr inbounds float, ptr %q, i64 0
  %v3 = getelementptr inbounds float, ptr %q, i64 8
  br label %pre4
pre4:
  br label %head5
head5:
  %i9 = phi i64 [ 0, %pre4 ], [ %inext10, %latch7 ]
  %carry11 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre4 ], [ %carried12, %latch7 ]
  %carry13 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre4 ], [ %carried14, %latch7 ]
  %carry15 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre4 ], [ %carried16, %latch7 ]
  %carry17 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre4 ], [ %carried18, %latch7 ]
  %carry19 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre4 ], [ %carried20, %latch7 ]
  %carry21 = phi <8 x float> [ <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %pre4 ], [ %carried22, %latch7 ]
  %v23 = icmp slt i64 %i9, 8
  br i1 %v23, label %body6, label %done8
body6:
  %v24 = mul i64 %i9, 24
  %v25 = getelementptr inbounds float, ptr %kt, i64 %v24
  %v26 = getelementptr inbounds float, ptr %v2, i64 %i9
  %v27 = getelementptr inbounds float, ptr %v3, i64 %i9
  %v28 = getelementptr inbounds float, ptr %v25, i64 0
  %v29 = load <8 x float>, ptr %v28, align 4
  %v30 = getelementptr inbounds float, ptr %v25, i64 8
  %v31 = load <8 x float>, ptr %v30, align 4
  %v32 = getelementptr inbounds float, ptr %v25, i64 16
  %v33 = load <8 x float>, ptr %v32, align 4
  %v34 = getelementptr inbounds float, ptr %v26, i64 0
  %v35 = load float, ptr %v34, align 4
  %v36 = insertelement <8 x float> poison, float %v35, i32 0
  %v37 = shufflevector <8 x float> %v36, <8 x float> poison, <8 x i32> zeroinitializer
  %v38 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v37, <8 x float> %v29, <8 x float> %carry11)
  %v39 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v37, <8 x float> %v31, <8 x float> %carry13)
  %v40 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v37, <8 x float> %v33, <8 x float> %carry15)
  %v41 = getelementptr inbounds float, ptr %v27, i64 0
  %v42 = load float, ptr %v41, align 4
  %v43 = insertelement <8 x float> poison, float %v42, i32 0
  %v44 = shufflevector <8 x float> %v43, <8 x float> poison, <8 x i32> zeroinitializer
  %v45 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v44, <8 x float> %v29, <8 x float> %carry17)
  %v46 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v44, <8 x float> %v31, <8 x float> %carry19)
  %v47 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v44, <8 x float> %v33, <8 x float> %carry21)
  %v48 = getelementptr inbounds float, ptr %v25, i64 24
  %v49 = load <8 x float>, ptr %v48, align 4
  %v50 = getelementptr inbounds float, ptr %v25, i64 32
  %v51 = load <8 x float>, ptr %v50, align 4
  %v52 = getelementptr inbounds float, ptr %v25, i64 40
  %v53 = load <8 x float>, ptr %v52, align 4
  %v54 = getelementptr inbounds float, ptr %v26, i64 1
  %v55 = load float, ptr %v54, align 4
  %v56 = insertelement <8 x float> poison, float %v55, i32 0
  %v57 = shufflevector <8 x float> %v56, <8 x float> poison, <8 x i32> zeroinitializer
  %v58 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v57, <8 x float> %v49, <8 x float> %v38)
  %v59 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v57, <8 x float> %v51, <8 x float> %v39)
  %v60 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v57, <8 x float> %v53, <8 x float> %v40)
  %v61 = getelementptr inbounds float, ptr %v27, i64 1
  %v62 = load float, ptr %v61, align 4
  %v63 = insertelement <8 x float> poison, float %v62, i32 0
  %v64 = shufflevector <8 x float> %v63, <8 x float> poison, <8 x i32> zeroinitializer
  %v65 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v64, <8 x float> %v49, <8 x float> %v45)
  %v66 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v64, <8 x float> %v51, <8 x float> %v46)
  %v67 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v64, <8 x float> %v53, <8 x float> %v47)
  %v68 = getelementptr inbounds float, ptr %v25, i64 48
  %v69 = load <8 x float>, ptr %v68, align 4
  %v70 = getelementptr inbounds float, ptr %v25, i64 56
  %v71 = load <8 x float>, ptr %v70, align 4
  %v72 = getelementptr inbounds float, ptr %v25, i64 64
  %v73 = load <8 x float>, ptr %v72, align 4
  %v74 = getelementptr inbounds float, ptr %v26, i64 2
  %v75 = load float, ptr %v74, align 4
  %v76 = insertelement <8 x float> poison, float %v75, i32 0
  %v77 = shufflevector <8 x float> %v76, <8 x float> poison, <8 x i32> zeroinitializer
  %v78 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v77, <8 x float> %v69, <8 x float> %v58)
  %v79 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v77, <8 x float> %v71, <8 x float> %v59)
  %v80 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v77, <8 x float> %v73, <8 x float> %v60)
  %v81 = getelementptr inbounds float, ptr %v27, i64 2
  %v82 = load float, ptr %v81, align 4
  %v83 = insertelement <8 x float> poison, float %v82, i32 0
  %v84 = shufflevector <8 x float> %v83, <8 x float> poison, <8 x i32> zeroinitializer
  %v85 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v84, <8 x float> %v69, <8 x float> %v65)
  %v86 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v84, <8 x float> %v71, <8 x float> %v66)
  %v87 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v84, <8 x float> %v73, <8 x float> %v67)
  %v88 = getelementptr inbounds float, ptr %v25, i64 72
  %v89 = load <8 x float>, ptr %v88, align 4
  %v90 = getelementptr inbounds float, ptr %v25, i64 80
  %v91 = load <8 x float>, ptr %v90, align 4
  %v92 = getelementptr inbounds float, ptr %v25, i64 88
  %v93 = load <8 x float>, ptr %v92, align 4
  %v94 = getelementptr inbounds float, ptr %v26, i64 3
  %v95 = load float, ptr %v94, align 4
  %v96 = insertelement <8 x float> poison, float %v95, i32 0
  %v97 = shufflevector <8 x float> %v96, <8 x float> poison, <8 x i32> zeroinitializer
  %v98 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v97, <8 x float> %v89, <8 x float> %v78)
  %v99 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v97, <8 x float> %v91, <8 x float> %v79)
  %v100 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v97, <8 x float> %v93, <8 x float> %v80)
  %v101 = getelementptr inbounds float, ptr %v27, i64 3
  %v102 = load float, ptr %v101, align 4
  %v103 = insertelement <8 x float> poison, float %v102, i32 0
  %v104 = shufflevector <8 x float> %v103, <8 x float> poison, <8 x i32> zeroinitializer
  %v105 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v104, <8 x float> %v89, <8 x float> %v85)
  %v106 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v104, <8 x float> %v91, <8 x float> %v86)
  %v107 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v104, <8 x float> %v93, <8 x float> %v87)
  %v108 = getelementptr inbounds float, ptr %v25, i64 96
  %v109 = load <8 x float>, ptr %v108, align 4
  %v110 = getelementptr inbounds float, ptr %v25, i64 104
  %v111 = load <8 x float>, ptr %v110, align 4
  %v112 = getelementptr inbounds float, ptr %v25, i64 112
  %v113 = load <8 x float>, ptr %v112, align 4
  %v114 = getelementptr inbounds float, ptr %v26, i64 4
  %v115 = load float, ptr %v114, align 4
  %v116 = insertelement <8 x float> poison, float %v115, i32 0
  %v117 = shufflevector <8 x float> %v116, <8 x float> poison, <8 x i32> zeroinitializer
  %v118 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v117, <8 x float> %v109, <8 x float> %v98)
  %v119 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v117, <8 x float> %v111, <8 x float> %v99)
  %v120 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v117, <8 x float> %v113, <8 x float> %v100)
  %v121 = getelementptr inbounds float, ptr %v27, i64 4
  %v122 = load float, ptr %v121, align 4
  %v123 = insertelement <8 x float> poison, float %v122, i32 0
  %v124 = shufflevector <8 x float> %v123, <8 x float> poison, <8 x i32> zeroinitializer
  %v125 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v124, <8 x float> %v109, <8 x float> %v105)
  %v126 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v124, <8 x float> %v111, <8 x float> %v106)
  %v127 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v124, <8 x float> %v113, <8 x float> %v107)
  %v128 = getelementptr inbounds float, ptr %v25, i64 120
  %v129 = load <8 x float>, ptr %v128, align 4
  %v130 = getelementptr inbounds float, ptr %v25, i64 128
  %v131 = load <8 x float>, ptr %v130, align 4
  %v132 = getelementptr inbounds float, ptr %v25, i64 136
  %v133 = load <8 x float>, ptr %v132, align 4
  %v134 = getelementptr inbounds float, ptr %v26, i64 5
  %v135 = load float, ptr %v134, align 4
  %v136 = insertelement <8 x float> poison, float %v135, i32 0
  %v137 = shufflevector <8 x float> %v136, <8 x float> poison, <8 x i32> zeroinitializer
  %v138 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v137, <8 x float> %v129, <8 x float> %v118)
  %v139 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v137, <8 x float> %v131, <8 x float> %v119)
  %v140 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v137, <8 x float> %v133, <8 x float> %v120)
  %v141 = getelementptr inbounds float, ptr %v27, i64 5
  %v142 = load float, ptr %v141, align 4
  %v143 = insertelement <8 x float> poison, float %v142, i32 0
  %v144 = shufflevector <8 x float> %v143, <8 x float> poison, <8 x i32> zeroinitializer
  %v145 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v144, <8 x float> %v129, <8 x float> %v125)
  %v146 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v144, <8 x float> %v131, <8 x float> %v126)
  %v147 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v144, <8 x float> %v133, <8 x float> %v127)
  %v148 = getelementptr inbounds float, ptr %v25, i64 144
  %v149 = load <8 x float>, ptr %v148, align 4
  %v150 = getelementptr inbounds float, ptr %v25, i64 152
  %v151 = load <8 x float>, ptr %v150, align 4
  %v152 = getelementptr inbounds float, ptr %v25, i64 160
  %v153 = load <8 x float>, ptr %v152, align 4
  %v154 = getelementptr inbounds float, ptr %v26, i64 6
  %v155 = load float, ptr %v154, align 4
  %v156 = insertelement <8 x float> poison, float %v155, i32 0
  %v157 = shufflevector <8 x float> %v156, <8 x float> poison, <8 x i32> zeroinitializer
  %v158 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v157, <8 x float> %v149, <8 x float> %v138)
  %v159 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v157, <8 x float> %v151, <8 x float> %v139)
  %v160 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v157, <8 x float> %v153, <8 x float> %v140)
  %v161 = getelementptr inbounds float, ptr %v27, i64 6
  %v162 = load float, ptr %v161, align 4
  %v163 = insertelement <8 x float> poison, float %v162, i32 0
  %v164 = shufflevector <8 x float> %v163, <8 x float> poison, <8 x i32> zeroinitializer
  %v165 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v164, <8 x float> %v149, <8 x float> %v145)
  %v166 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v164, <8 x float> %v151, <8 x float> %v146)
  %v167 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v164, <8 x float> %v153, <8 x float> %v147)
  %v168 = getelementptr inbounds float, ptr %v25, i64 168
  %v169 = load <8 x float>, ptr %v168, align 4
  %v170 = getelementptr inbounds float, ptr %v25, i64 176
  %v171 = load <8 x float>, ptr %v170, align 4
  %v172 = getelementptr inbounds float, ptr %v25, i64 184
  %v173 = load <8 x float>, ptr %v172, align 4
  %v174 = getelementptr inbounds float, ptr %v26, i64 7
  %v175 = load float, ptr %v174, align 4
  %v176 = insertelement <8 x float> poison, float %v175, i32 0
  %v177 = shufflevector <8 x float> %v176, <8 x float> poison, <8 x i32> zeroinitializer
  %v178 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v177, <8 x float> %v169, <8 x float> %v158)
  %v179 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v177, <8 x float> %v171, <8 x float> %v159)
  %v180 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v177, <8 x float> %v173, <8 x float> %v160)
  %v181 = getelementptr inbounds float, ptr %v27, i64 7
  %v182 = load float, ptr %v181, align 4
  %v183 = insertelement <8 x float> poison, float %v182, i32 0
  %v184 = shufflevector <8 x float> %v183, <8 x float> poison, <8 x i32> zeroinitializer
  %v185 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v184, <8 x float> %v169, <8 x float> %v165)
  %v186 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v184, <8 x float> %v171, <8 x float> %v166)
  %v187 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v184, <8 x float> %v173, <8 x float> %v167)
  br label %latch7
latch7:
  %carried12 = select i1 true, <8 x float> %v178, <8 x float> %v178
  %carried14 = select i1 true, <8 x float> %v179, <8 x float> %v179
  %carried16 = select i1 true, <8 x float> %v180, <8 x float> %v180
  %carried18 = select i1 true, <8 x float> %v185, <8 x float> %v185
  %carried20 = select i1 true, <8 x float> %v186, <8 x float> %v186
  %carried22 = select i1 true, <8 x float> %v187, <8 x float> %v187
  %inext10 = add i64 %i9, 8
  br label %head5
done8:
  br label %nomask190
nomask190:
  br i1 %masked, label %mask188, label %masked189
mask188:
  %v191 = trunc i64 %cols to i32
  %v192 = insertelement <8 x i32> poison, i32 %v191, i32 0
  %v193 = shufflevector <8 x i32> %v192, <8 x i32> poison, <8 x i32> zeroinitializer
  %v194 = trunc i64 %diff to i32
  %v195 = add i32 %v194, 0
  %v196 = insertelement <8 x i32> poison, i32 %v195, i32 0
  %v197 = shufflevector <8 x i32> %v196, <8 x i32> poison, <8 x i32> zeroinitializer
  %v198 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v193
  %v199 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v197
  %v200 = and <8 x i1> %v198, %v199
  %v201 = select <8 x i1> %v200, <8 x float> %carry11, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v202 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v193
  %v203 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v197
  %v204 = and <8 x i1> %v202, %v203
  %v205 = select <8 x i1> %v204, <8 x float> %carry13, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v206 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v193
  %v207 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v197
  %v208 = and <8 x i1> %v206, %v207
  %v209 = select <8 x i1> %v208, <8 x float> %carry15, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v210 = add i32 %v194, 1
  %v211 = insertelement <8 x i32> poison, i32 %v210, i32 0
  %v212 = shufflevector <8 x i32> %v211, <8 x i32> poison, <8 x i32> zeroinitializer
  %v213 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v193
  %v214 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v212
  %v215 = and <8 x i1> %v213, %v214
  %v216 = select <8 x i1> %v215, <8 x float> %carry17, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v217 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v193
  %v218 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v212
  %v219 = and <8 x i1> %v217, %v218
  %v220 = select <8 x i1> %v219, <8 x float> %carry19, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v221 = icmp slt <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v193
  %v222 = icmp sle <8 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23>, %v212
  %v223 = and <8 x i1> %v221, %v222
  %v224 = select <8 x i1> %v223, <8 x float> %carry21, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  br label %masked189
masked189:
  %v225 = phi <8 x float> [ %carry11, %nomask190 ], [ %v201, %mask188 ]
  %v226 = phi <8 x float> [ %carry13, %nomask190 ], [ %v205, %mask188 ]
  %v227 = phi <8 x float> [ %carry15, %nomask190 ], [ %v209, %mask188 ]
  %v228 = phi <8 x float> [ %carry17, %nomask190 ], [ %v216, %mask188 ]
  %v229 = phi <8 x float> [ %carry19, %nomask190 ], [ %v220, %mask188 ]
  %v230 = phi <8 x float> [ %carry21, %nomask190 ], [ %v224, %mask188 ]
  %v231 = fmul float %scale, 0x3FF7154760000000
  %v232 = insertelement <8 x float> poison, float %v231, i32 0
  %v233 = shufflevector <8 x float> %v232, <8 x float> poison, <8 x i32> zeroinitializer
  %v234 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v225, <8 x float> %v226)
  %v235 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v234, <8 x float> %v227)
  %v236 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v235)
  %v237 = fmul float %v236, %scale
  %v238 = getelementptr inbounds float, ptr %state, i64 0
  %v239 = load float, ptr %v238, align 4
  %v240 = call float @llvm.maxnum.f32(float %v239, float %v237)
  %v241 = fcmp oeq float %v240, 0xFFF0000000000000
  %v242 = select i1 %v241, float 0x0000000000000000, float %v240
  %v243 = fmul float %v242, 0xBFF7154760000000
  %v244 = insertelement <8 x float> poison, float %v243, i32 0
  %v245 = shufflevector <8 x float> %v244, <8 x float> poison, <8 x i32> zeroinitializer
  %v246 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v225, <8 x float> %v233, <8 x float> %v245)
  %v247 = call <8 x float> @exp2_8(<8 x float> %v246)
  %v248 = getelementptr inbounds float, ptr %slot1, i64 0
  store <8 x float> %v247, ptr %v248, align 4
  %v249 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v226, <8 x float> %v233, <8 x float> %v245)
  %v250 = call <8 x float> @exp2_8(<8 x float> %v249)
  %v251 = getelementptr inbounds float, ptr %slot1, i64 8
  store <8 x float> %v250, ptr %v251, align 4
  %v252 = fadd <8 x float> %v247, %v250
  %v253 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v227, <8 x float> %v233, <8 x float> %v245)
  %v254 = call <8 x float> @exp2_8(<8 x float> %v253)
  %v255 = getelementptr inbounds float, ptr %slot1, i64 16
  store <8 x float> %v254, ptr %v255, align 4
  %v256 = fadd <8 x float> %v252, %v254
  %v257 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v256)
  %v258 = fsub float %v239, %v242
  %v259 = fmul float %v258, 0x3FF7154760000000
  %v260 = fcmp une float %v240, %v239
  %v261 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v228, <8 x float> %v229)
  %v262 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v261, <8 x float> %v230)
  %v263 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v262)
  %v264 = fmul float %v263, %scale
  %v265 = getelementptr inbounds float, ptr %state, i64 10
  %v266 = load float, ptr %v265, align 4
  %v267 = call float @llvm.maxnum.f32(float %v266, float %v264)
  %v268 = fcmp oeq float %v267, 0xFFF0000000000000
  %v269 = select i1 %v268, float 0x0000000000000000, float %v267
  %v270 = fmul float %v269, 0xBFF7154760000000
  %v271 = insertelement <8 x float> poison, float %v270, i32 0
  %v272 = shufflevector <8 x float> %v271, <8 x float> poison, <8 x i32> zeroinitializer
  %v273 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v228, <8 x float> %v233, <8 x float> %v272)
  %v274 = call <8 x float> @exp2_8(<8 x float> %v273)
  %v275 = getelementptr inbounds float, ptr %slot1, i64 24
  store <8 x float> %v274, ptr %v275, align 4
  %v276 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v229, <8 x float> %v233, <8 x float> %v272)
  %v277 = call <8 x float> @exp2_8(<8 x float> %v276)
  %v278 = getelementptr inbounds float, ptr %slot1, i64 32
  store <8 x float> %v277, ptr %v278, align 4
  %v279 = fadd <8 x float> %v274, %v277
  %v280 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v230, <8 x float> %v233, <8 x float> %v272)
  %v281 = call <8 x float> @exp2_8(<8 x float> %v280)
  %v282 = getelementptr inbounds float, ptr %slot1, i64 40
  store <8 x float> %v281, ptr %v282, align 4
  %v283 = fadd <8 x float> %v279, %v281
  %v284 = call float @llvm.vector.reduce.fadd.v8f32(float 0x8000000000000000, <8 x float> %v283)
  %v285 = fsub float %v266, %v269
  %v286 = fmul float %v285, 0x3FF7154760000000
  %v287 = fcmp une float %v267, %v266
  %v288 = insertelement <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, float %v259, i32 0
  %v289 = insertelement <8 x float> %v288, float %v286, i32 1
  %v290 = call <8 x float> @exp2_8(<8 x float> %v289)
  %v291 = extractelement <8 x float> %v290, i32 0
  %v292 = getelementptr inbounds float, ptr %state, i64 1
  %v293 = load float, ptr %v292, align 4
  %v294 = call float @llvm.fma.f32(float %v293, float %v291, float %v257)
  store float %v294, ptr %v292, align 4
  %v295 = getelementptr inbounds float, ptr %state, i64 0
  store float %v240, ptr %v295, align 4
  %v296 = insertelement <8 x float> poison, float %v291, i32 0
  %v297 = shufflevector <8 x float> %v296, <8 x float> poison, <8 x i32> zeroinitializer
  %v298 = or i1 false, %v260
  %v299 = extractelement <8 x float> %v290, i32 1
  %v300 = getelementptr inbounds float, ptr %state, i64 11
  %v301 = load float, ptr %v300, align 4
  %v302 = call float @llvm.fma.f32(float %v301, float %v299, float %v284)
  store float %v302, ptr %v300, align 4
  %v303 = getelementptr inbounds float, ptr %state, i64 10
  store float %v267, ptr %v303, align 4
  %v304 = insertelement <8 x float> poison, float %v299, i32 0
  %v305 = shufflevector <8 x float> %v304, <8 x float> poison, <8 x i32> zeroinitializer
  %v306 = or i1 %v298, %v287
  %v307 = sdiv i64 %cols, 4
  %v308 = mul i64 %v307, 4
  br i1 %v306, label %pv_scaled309, label %pv_plain310
pv_scaled309:
  %v312 = getelementptr inbounds float, ptr %state, i64 2
  %v313 = load <8 x float>, ptr %v312, align 4
  %v314 = fmul <8 x float> %v313, %v297
  %v315 = getelementptr inbounds float, ptr %state, i64 12
  %v316 = load <8 x float>, ptr %v315, align 4
  %v317 = fmul <8 x float> %v316, %v305
  br label %pre318
pre318:
  br label %head319
head319:
  %i323 = phi i64 [ 0, %pre318 ], [ %inext324, %latch321 ]
  %carry325 = phi <8 x float> [ %v314, %pre318 ], [ %carried326, %latch321 ]
  %carry327 = phi <8 x float> [ %v317, %pre318 ], [ %carried328, %latch321 ]
  %v329 = icmp slt i64 %i323, %v308
  br i1 %v329, label %body320, label %done322
body320:
  %v330 = add i64 %i323, 0
  %v331 = mul i64 %v330, 8
  %v332 = add i64 %v331, 0
  %v333 = getelementptr inbounds float, ptr %v, i64 %v332
  %v334 = load <8 x float>, ptr %v333, align 4
  %v335 = add i64 %v330, 0
  %v336 = getelementptr inbounds float, ptr %slot1, i64 %v335
  %v337 = load float, ptr %v336, align 4
  %v338 = insertelement <8 x float> poison, float %v337, i32 0
  %v339 = shufflevector <8 x float> %v338, <8 x float> poison, <8 x i32> zeroinitializer
  %v340 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v339, <8 x float> %v334, <8 x float> %carry325)
  %v341 = add i64 %v330, 24
  %v342 = getelementptr inbounds float, ptr %slot1, i64 %v341
  %v343 = load float, ptr %v342, align 4
  %v344 = insertelement <8 x float> poison, float %v343, i32 0
  %v345 = shufflevector <8 x float> %v344, <8 x float> poison, <8 x i32> zeroinitializer
  %v346 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v345, <8 x float> %v334, <8 x float> %carry327)
  %v347 = add i64 %i323, 1
  %v348 = mul i64 %v347, 8
  %v349 = add i64 %v348, 0
  %v350 = getelementptr inbounds float, ptr %v, i64 %v349
  %v351 = load <8 x float>, ptr %v350, align 4
  %v352 = add i64 %v347, 0
  %v353 = getelementptr inbounds float, ptr %slot1, i64 %v352
  %v354 = load float, ptr %v353, align 4
  %v355 = insertelement <8 x float> poison, float %v354, i32 0
  %v356 = shufflevector <8 x float> %v355, <8 x float> poison, <8 x i32> zeroinitializer
  %v357 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v356, <8 x float> %v351, <8 x float> %v340)
  %v358 = add i64 %v347, 24
  %v359 = getelementptr inbounds float, ptr %slot1, i64 %v358
  %v360 = load float, ptr %v359, align 4
  %v361 = insertelement <8 x float> poison, float %v360, i32 0
  %v362 = shufflevector <8 x float> %v361, <8 x float> poison, <8 x i32> zeroinitializer
  %v363 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v362, <8 x float> %v351, <8 x float> %v346)
  %v364 = add i64 %i323, 2
  %v365 = mul i64 %v364, 8
  %v366 = add i64 %v365, 0
  %v367 = getelementptr inbounds float, ptr %v, i64 %v366
  %v368 = load <8 x float>, ptr %v367, align 4
  %v369 = add i64 %v364, 0
  %v370 = getelementptr inbounds float, ptr %slot1, i64 %v369
  %v371 = load float, ptr %v370, align 4
  %v372 = insertelement <8 x float> poison, float %v371, i32 0
  %v373 = shufflevector <8 x float> %v372, <8 x float> poison, <8 x i32> zeroinitializer
  %v374 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v373, <8 x float> %v368, <8 x float> %v357)
  %v375 = add i64 %v364, 24
  %v376 = getelementptr inbounds float, ptr %slot1, i64 %v375
  %v377 = load float, ptr %v376, align 4
  %v378 = insertelement <8 x float> poison, float %v377, i32 0
  %v379 = shufflevector <8 x float> %v378, <8 x float> poison, <8 x i32> zeroinitializer
  %v380 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v379, <8 x float> %v368, <8 x float> %v363)
  %v381 = add i64 %i323, 3
  %v382 = mul i64 %v381, 8
  %v383 = add i64 %v382, 0
  %v384 = getelementptr inbounds float, ptr %v, i64 %v383
  %v385 = load <8 x float>, ptr %v384, align 4
  %v386 = add i64 %v381, 0
  %v387 = getelementptr inbounds float, ptr %slot1, i64 %v386
  %v388 = load float, ptr %v387, align 4
  %v389 = insertelement <8 x float> poison, float %v388, i32 0
  %v390 = shufflevector <8 x float> %v389, <8 x float> poison, <8 x i32> zeroinitializer
  %v391 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v390, <8 x float> %v385, <8 x float> %v374)
  %v392 = add i64 %v381, 24
  %v393 = getelementptr inbounds float, ptr %slot1, i64 %v392
  %v394 = load float, ptr %v393, align 4
  %v395 = insertelement <8 x float> poison, float %v394, i32 0
  %v396 = shufflevector <8 x float> %v395, <8 x float> poison, <8 x i32> zeroinitializer
  %v397 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v396, <8 x float> %v385, <8 x float> %v380)
  br label %latch321
latch321:
  %carried326 = select i1 true, <8 x float> %v391, <8 x float> %v391
  %carried328 = select i1 true, <8 x float> %v397, <8 x float> %v397
  %inext324 = add i64 %i323, 4
  br label %head319
done322:
  br label %pre398
pre398:
  br label %head399
head399:
  %i403 = phi i64 [ %v308, %pre398 ], [ %inext404, %latch401 ]
  %carry405 = phi <8 x float> [ %carry325, %pre398 ], [ %carried406, %latch401 ]
  %carry407 = phi <8 x float> [ %carry327, %pre398 ], [ %carried408, %latch401 ]
  %v409 = icmp slt i64 %i403, %cols
  br i1 %v409, label %body400, label %done402
body400:
  %v410 = mul i64 %i403, 8
  %v411 = add i64 %v410, 0
  %v412 = getelementptr inbounds float, ptr %v, i64 %v411
  %v413 = load <8 x float>, ptr %v412, align 4
  %v414 = add i64 %i403, 0
  %v415 = getelementptr inbounds float, ptr %slot1, i64 %v414
  %v416 = load float, ptr %v415, align 4
  %v417 = insertelement <8 x float> poison, float %v416, i32 0
  %v418 = shufflevector <8 x float> %v417, <8 x float> poison, <8 x i32> zeroinitializer
  %v419 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v418, <8 x float> %v413, <8 x float> %carry405)
  %v420 = add i64 %i403, 24
  %v421 = getelementptr inbounds float, ptr %slot1, i64 %v420
  %v422 = load float, ptr %v421, align 4
  %v423 = insertelement <8 x float> poison, float %v422, i32 0
  %v424 = shufflevector <8 x float> %v423, <8 x float> poison, <8 x i32> zeroinitializer
  %v425 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v424, <8 x float> %v413, <8 x float> %carry407)
  br label %latch401
latch401:
  %carried406 = select i1 true, <8 x float> %v419, <8 x float> %v419
  %carried408 = select i1 true, <8 x float> %v425, <8 x float> %v425
  %inext404 = add i64 %i403, 1
  br label %head399
done402:
  %v426 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry405, ptr %v426, align 4
  %v427 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry407, ptr %v427, align 4
  br label %pv_done311
pv_plain310:
  %v428 = getelementptr inbounds float, ptr %state, i64 2
  %v429 = load <8 x float>, ptr %v428, align 4
  %v430 = getelementptr inbounds float, ptr %state, i64 12
  %v431 = load <8 x float>, ptr %v430, align 4
  br label %pre432
pre432:
  br label %head433
head433:
  %i437 = phi i64 [ 0, %pre432 ], [ %inext438, %latch435 ]
  %carry439 = phi <8 x float> [ %v429, %pre432 ], [ %carried440, %latch435 ]
  %carry441 = phi <8 x float> [ %v431, %pre432 ], [ %carried442, %latch435 ]
  %v443 = icmp slt i64 %i437, %v308
  br i1 %v443, label %body434, label %done436
body434:
  %v444 = add i64 %i437, 0
  %v445 = mul i64 %v444, 8
  %v446 = add i64 %v445, 0
  %v447 = getelementptr inbounds float, ptr %v, i64 %v446
  %v448 = load <8 x float>, ptr %v447, align 4
  %v449 = add i64 %v444, 0
  %v450 = getelementptr inbounds float, ptr %slot1, i64 %v449
  %v451 = load float, ptr %v450, align 4
  %v452 = insertelement <8 x float> poison, float %v451, i32 0
  %v453 = shufflevector <8 x float> %v452, <8 x float> poison, <8 x i32> zeroinitializer
  %v454 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v453, <8 x float> %v448, <8 x float> %carry439)
  %v455 = add i64 %v444, 24
  %v456 = getelementptr inbounds float, ptr %slot1, i64 %v455
  %v457 = load float, ptr %v456, align 4
  %v458 = insertelement <8 x float> poison, float %v457, i32 0
  %v459 = shufflevector <8 x float> %v458, <8 x float> poison, <8 x i32> zeroinitializer
  %v460 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v459, <8 x float> %v448, <8 x float> %carry441)
  %v461 = add i64 %i437, 1
  %v462 = mul i64 %v461, 8
  %v463 = add i64 %v462, 0
  %v464 = getelementptr inbounds float, ptr %v, i64 %v463
  %v465 = load <8 x float>, ptr %v464, align 4
  %v466 = add i64 %v461, 0
  %v467 = getelementptr inbounds float, ptr %slot1, i64 %v466
  %v468 = load float, ptr %v467, align 4
  %v469 = insertelement <8 x float> poison, float %v468, i32 0
  %v470 = shufflevector <8 x float> %v469, <8 x float> poison, <8 x i32> zeroinitializer
  %v471 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v470, <8 x float> %v465, <8 x float> %v454)
  %v472 = add i64 %v461, 24
  %v473 = getelementptr inbounds float, ptr %slot1, i64 %v472
  %v474 = load float, ptr %v473, align 4
  %v475 = insertelement <8 x float> poison, float %v474, i32 0
  %v476 = shufflevector <8 x float> %v475, <8 x float> poison, <8 x i32> zeroinitializer
  %v477 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v476, <8 x float> %v465, <8 x float> %v460)
  %v478 = add i64 %i437, 2
  %v479 = mul i64 %v478, 8
  %v480 = add i64 %v479, 0
  %v481 = getelementptr inbounds float, ptr %v, i64 %v480
  %v482 = load <8 x float>, ptr %v481, align 4
  %v483 = add i64 %v478, 0
  %v484 = getelementptr inbounds float, ptr %slot1, i64 %v483
  %v485 = load float, ptr %v484, align 4
  %v486 = insertelement <8 x float> poison, float %v485, i32 0
  %v487 = shufflevector <8 x float> %v486, <8 x float> poison, <8 x i32> zeroinitializer
  %v488 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v487, <8 x float> %v482, <8 x float> %v471)
  %v489 = add i64 %v478, 24
  %v490 = getelementptr inbounds float, ptr %slot1, i64 %v489
  %v491 = load float, ptr %v490, align 4
  %v492 = insertelement <8 x float> poison, float %v491, i32 0
  %v493 = shufflevector <8 x float> %v492, <8 x float> poison, <8 x i32> zeroinitializer
  %v494 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v493, <8 x float> %v482, <8 x float> %v477)
  %v495 = add i64 %i437, 3
  %v496 = mul i64 %v495, 8
  %v497 = add i64 %v496, 0
  %v498 = getelementptr inbounds float, ptr %v, i64 %v497
  %v499 = load <8 x float>, ptr %v498, align 4
  %v500 = add i64 %v495, 0
  %v501 = getelementptr inbounds float, ptr %slot1, i64 %v500
  %v502 = load float, ptr %v501, align 4
  %v503 = insertelement <8 x float> poison, float %v502, i32 0
  %v504 = shufflevector <8 x float> %v503, <8 x float> poison, <8 x i32> zeroinitializer
  %v505 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v504, <8 x float> %v499, <8 x float> %v488)
  %v506 = add i64 %v495, 24
  %v507 = getelementptr inbounds float, ptr %slot1, i64 %v506
  %v508 = load float, ptr %v507, align 4
  %v509 = insertelement <8 x float> poison, float %v508, i32 0
  %v510 = shufflevector <8 x float> %v509, <8 x float> poison, <8 x i32> zeroinitializer
  %v511 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v510, <8 x float> %v499, <8 x float> %v494)
  br label %latch435
latch435:
  %carried440 = select i1 true, <8 x float> %v505, <8 x float> %v505
  %carried442 = select i1 true, <8 x float> %v511, <8 x float> %v511
  %inext438 = add i64 %i437, 4
  br label %head433
done436:
  br label %pre512
pre512:
  br label %head513
head513:
  %i517 = phi i64 [ %v308, %pre512 ], [ %inext518, %latch515 ]
  %carry519 = phi <8 x float> [ %carry439, %pre512 ], [ %carried520, %latch515 ]
  %carry521 = phi <8 x float> [ %carry441, %pre512 ], [ %carried522, %latch515 ]
  %v523 = icmp slt i64 %i517, %cols
  br i1 %v523, label %body514, label %done516
body514:
  %v524 = mul i64 %i517, 8
  %v525 = add i64 %v524, 0
  %v526 = getelementptr inbounds float, ptr %v, i64 %v525
  %v527 = load <8 x float>, ptr %v526, align 4
  %v528 = add i64 %i517, 0
  %v529 = getelementptr inbounds float, ptr %slot1, i64 %v528
  %v530 = load float, ptr %v529, align 4
  %v531 = insertelement <8 x float> poison, float %v530, i32 0
  %v532 = shufflevector <8 x float> %v531, <8 x float> poison, <8 x i32> zeroinitializer
  %v533 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v532, <8 x float> %v527, <8 x float> %carry519)
  %v534 = add i64 %i517, 24
  %v535 = getelementptr inbounds float, ptr %slot1, i64 %v534
  %v536 = load float, ptr %v535, align 4
  %v537 = insertelement <8 x float> poison, float %v536, i32 0
  %v538 = shufflevector <8 x float> %v537, <8 x float> poison, <8 x i32> zeroinitializer
  %v539 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v538, <8 x float> %v527, <8 x float> %carry521)
  br label %latch515
latch515:
  %carried520 = select i1 true, <8 x float> %v533, <8 x float> %v533
  %carried522 = select i1 true, <8 x float> %v539, <8 x float> %v539
  %inext518 = add i64 %i517, 1
  br label %head513
done516:
  %v540 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry519, ptr %v540, align 4
  %v541 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry521, ptr %v541, align 4
  br label %pv_done311
pv_done311:
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
