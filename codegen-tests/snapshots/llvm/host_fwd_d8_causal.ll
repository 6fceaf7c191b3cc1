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

define internal <8 x float> @exp8(<8 x float> %x) alwaysinline "target-cpu"="x86-64-v3" "target-features"="+avx2,+fma" nounwind {
entry:
  %v1 = fcmp olt <8 x float> %x, <float 0xC055C00000000000, float 0xC055C00000000000, float 0xC055C00000000000, float 0xC055C00000000000, float 0xC055C00000000000, float 0xC055C00000000000, float 0xC055C00000000000, float 0xC055C00000000000>
  %v2 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %x, <8 x float> <float 0xC055C00000000000, float 0xC055C00000000000, float 0xC055C00000000000, float 0xC055C00000000000, float 0xC055C00000000000, float 0xC055C00000000000, float 0xC055C00000000000, float 0xC055C00000000000>)
  %v3 = call <8 x float> @llvm.minnum.v8f32(<8 x float> %v2, <8 x float> <float 0x4056000000000000, float 0x4056000000000000, float 0x4056000000000000, float 0x4056000000000000, float 0x4056000000000000, float 0x4056000000000000, float 0x4056000000000000, float 0x4056000000000000>)
  %v4 = fmul <8 x float> %v3, <float 0x3FF7154760000000, float 0x3FF7154760000000, float 0x3FF7154760000000, float 0x3FF7154760000000, float 0x3FF7154760000000, float 0x3FF7154760000000, float 0x3FF7154760000000, float 0x3FF7154760000000>
  %v5 = call <8 x float> @llvm.rint.v8f32(<8 x float> %v4)
  %v6 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v5, <8 x float> <float 0xBFE62E4000000000, float 0xBFE62E4000000000, float 0xBFE62E4000000000, float 0xBFE62E4000000000, float 0xBFE62E4000000000, float 0xBFE62E4000000000, float 0xBFE62E4000000000, float 0xBFE62E4000000000>, <8 x float> %v3)
  %v7 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v5, <8 x float> <float 0xBEB7F7D1C0000000, float 0xBEB7F7D1C0000000, float 0xBEB7F7D1C0000000, float 0xBEB7F7D1C0000000, float 0xBEB7F7D1C0000000, float 0xBEB7F7D1C0000000, float 0xBEB7F7D1C0000000, float 0xBEB7F7D1C0000000>, <8 x float> %v6)
  %v8 = call <8 x float> @llvm.fma.v8f32(<8 x float> <float 0x3F56C16C20000000, float 0x3F56C16C20000000, float 0x3F56C16C20000000, float 0x3F56C16C20000000, float 0x3F56C16C20000000, float 0x3F56C16C20000000, float 0x3F56C16C20000000, float 0x3F56C16C20000000>, <8 x float> %v7, <8 x float> <float 0x3F81111120000000, float 0x3F81111120000000, float 0x3F81111120000000, float 0x3F81111120000000, float 0x3F81111120000000, float 0x3F81111120000000, float 0x3F81111120000000, float 0x3F81111120000000>)
  %v9 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v8, <8 x float> %v7, <8 x float> <float 0x3FA5555560000000, float 0x3FA5555560000000, float 0x3FA5555560000000, float 0x3FA5555560000000, float 0x3FA5555560000000, float 0x3FA5555560000000, float 0x3FA5555560000000, float 0x3FA5555560000000>)
  %v10 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v9, <8 x float> %v7, <8 x float> <float 0x3FC5555560000000, float 0x3FC5555560000000, float 0x3FC5555560000000, float 0x3FC5555560000000, float 0x3FC5555560000000, float 0x3FC5555560000000, float 0x3FC5555560000000, float 0x3FC5555560000000>)
  %v11 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v10, <8 x float> %v7, <8 x float> <float 0x3FE0000000000000, float 0x3FE0000000000000, float 0x3FE0000000000000, float 0x3FE0000000000000, float 0x3FE0000000000000, float 0x3FE0000000000000, float 0x3FE0000000000000, float 0x3FE0000000000000>)
  %v12 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v11, <8 x float> %v7, <8 x float> <float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000>)
  %v13 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v12, <8 x float> %v7, <8 x float> <float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000, float 0x3FF0000000000000>)
  %v14 = fptosi <8 x float> %v5 to <8 x i32>
  %v15 = add <8 x i32> %v14, <i32 127, i32 127, i32 127, i32 127, i32 127, i32 127, i32 127, i32 127>
  %v16 = shl <8 x i32> %v15, <i32 23, i32 23, i32 23, i32 23, i32 23, i32 23, i32 23, i32 23>
  %v17 = bitcast <8 x i32> %v16 to <8 x float>
  %v18 = fmul <8 x float> %v13, %v17
  %v19 = select <8 x i1> %v1, <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, <8 x float> %v18
  ret <8 x float> %v19
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
  %v253 = insertelement <8 x float> poison, float %scale, i32 0
  %v254 = shufflevector <8 x float> %v253, <8 x float> poison, <8 x i32> zeroinitializer
  %v255 = fmul <8 x float> %carry9, %v254
  %v256 = fmul <8 x float> %carry11, %v254
  %v257 = fmul <8 x float> %carry13, %v254
  %v258 = fmul <8 x float> %carry15, %v254
  %v259 = fmul <8 x float> %carry17, %v254
  %v260 = fmul <8 x float> %carry19, %v254
  %v261 = fmul <8 x float> %carry21, %v254
  %v262 = fmul <8 x float> %carry23, %v254
  br label %nomask265
nomask265:
  br i1 %masked, label %mask263, label %masked264
mask263:
  %v266 = trunc i64 %cols to i32
  %v267 = insertelement <8 x i32> poison, i32 %v266, i32 0
  %v268 = shufflevector <8 x i32> %v267, <8 x i32> poison, <8 x i32> zeroinitializer
  %v269 = trunc i64 %diff to i32
  %v270 = add i32 %v269, 0
  %v271 = insertelement <8 x i32> poison, i32 %v270, i32 0
  %v272 = shufflevector <8 x i32> %v271, <8 x i32> poison, <8 x i32> zeroinitializer
  %v273 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v268
  %v274 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v272
  %v275 = and <8 x i1> %v273, %v274
  %v276 = select <8 x i1> %v275, <8 x float> %v255, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v277 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v268
  %v278 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v272
  %v279 = and <8 x i1> %v277, %v278
  %v280 = select <8 x i1> %v279, <8 x float> %v256, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v281 = add i32 %v269, 1
  %v282 = insertelement <8 x i32> poison, i32 %v281, i32 0
  %v283 = shufflevector <8 x i32> %v282, <8 x i32> poison, <8 x i32> zeroinitializer
  %v284 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v268
  %v285 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v283
  %v286 = and <8 x i1> %v284, %v285
  %v287 = select <8 x i1> %v286, <8 x float> %v257, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v288 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v268
  %v289 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v283
  %v290 = and <8 x i1> %v288, %v289
  %v291 = select <8 x i1> %v290, <8 x float> %v258, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v292 = add i32 %v269, 2
  %v293 = insertelement <8 x i32> poison, i32 %v292, i32 0
  %v294 = shufflevector <8 x i32> %v293, <8 x i32> poison, <8 x i32> zeroinitializer
  %v295 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v268
  %v296 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v294
  %v297 = and <8 x i1> %v295, %v296
  %v298 = select <8 x i1> %v297, <8 x float> %v259, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v299 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v268
  %v300 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v294
  %v301 = and <8 x i1> %v299, %v300
  %v302 = select <8 x i1> %v301, <8 x float> %v260, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v303 = add i32 %v269, 3
  %v304 = insertelement <8 x i32> poison, i32 %v303, i32 0
  %v305 = shufflevector <8 x i32> %v304, <8 x i32> poison, <8 x i32> zeroinitializer
  %v306 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v268
  %v307 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v305
  %v308 = and <8 x i1> %v306, %v307
  %v309 = select <8 x i1> %v308, <8 x float> %v261, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v310 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v268
  %v311 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v305
  %v312 = and <8 x i1> %v310, %v311
  %v313 = select <8 x i1> %v312, <8 x float> %v262, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  br label %masked264
masked264:
  %v314 = phi <8 x float> [ %v255, %nomask265 ], [ %v276, %mask263 ]
  %v315 = phi <8 x float> [ %v256, %nomask265 ], [ %v280, %mask263 ]
  %v316 = phi <8 x float> [ %v257, %nomask265 ], [ %v287, %mask263 ]
  %v317 = phi <8 x float> [ %v258, %nomask265 ], [ %v291, %mask263 ]
  %v318 = phi <8 x float> [ %v259, %nomask265 ], [ %v298, %mask263 ]
  %v319 = phi <8 x float> [ %v260, %nomask265 ], [ %v302, %mask263 ]
  %v320 = phi <8 x float> [ %v261, %nomask265 ], [ %v309, %mask263 ]
  %v321 = phi <8 x float> [ %v262, %nomask265 ], [ %v313, %mask263 ]
  %v322 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v314, <8 x float> %v315)
  %v323 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v322)
  %v324 = getelementptr inbounds float, ptr %state, i64 0
  %v325 = load float, ptr %v324, align 4
  %v326 = call float @llvm.maxnum.f32(float %v325, float %v323)
  %v327 = fcmp oeq float %v326, 0xFFF0000000000000
  %v328 = select i1 %v327, float 0x0000000000000000, float %v326
  %v329 = insertelement <8 x float> poison, float %v328, i32 0
  %v330 = shufflevector <8 x float> %v329, <8 x float> poison, <8 x i32> zeroinitializer
  %v331 = fsub <8 x float> %v314, %v330
  %v332 = call <8 x float> @exp8(<8 x float> %v331)
  %v333 = getelementptr inbounds float, ptr %slot1, i64 0
  store <8 x float> %v332, ptr %v333, align 4
  %v334 = fadd <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %v332
  %v335 = fsub <8 x float> %v315, %v330
  %v336 = call <8 x float> @exp8(<8 x float> %v335)
  %v337 = getelementptr inbounds float, ptr %slot1, i64 8
  store <8 x float> %v336, ptr %v337, align 4
  %v338 = fadd <8 x float> %v334, %v336
  %v339 = call float @llvm.vector.reduce.fadd.v8f32(float 0x0000000000000000, <8 x float> %v338)
  %v340 = fsub float %v325, %v328
  %v341 = fcmp une float %v326, %v325
  %v342 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v316, <8 x float> %v317)
  %v343 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v342)
  %v344 = getelementptr inbounds float, ptr %state, i64 10
  %v345 = load float, ptr %v344, align 4
  %v346 = call float @llvm.maxnum.f32(float %v345, float %v343)
  %v347 = fcmp oeq float %v346, 0xFFF0000000000000
  %v348 = select i1 %v347, float 0x0000000000000000, float %v346
  %v349 = insertelement <8 x float> poison, float %v348, i32 0
  %v350 = shufflevector <8 x float> %v349, <8 x float> poison, <8 x i32> zeroinitializer
  %v351 = fsub <8 x float> %v316, %v350
  %v352 = call <8 x float> @exp8(<8 x float> %v351)
  %v353 = getelementptr inbounds float, ptr %slot1, i64 16
  store <8 x float> %v352, ptr %v353, align 4
  %v354 = fadd <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %v352
  %v355 = fsub <8 x float> %v317, %v350
  %v356 = call <8 x float> @exp8(<8 x float> %v355)
  %v357 = getelementptr inbounds float, ptr %slot1, i64 24
  store <8 x float> %v356, ptr %v357, align 4
  %v358 = fadd <8 x float> %v354, %v356
  %v359 = call float @llvm.vector.reduce.fadd.v8f32(float 0x0000000000000000, <8 x float> %v358)
  %v360 = fsub float %v345, %v348
  %v361 = fcmp une float %v346, %v345
  %v362 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v318, <8 x float> %v319)
  %v363 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v362)
  %v364 = getelementptr inbounds float, ptr %state, i64 20
  %v365 = load float, ptr %v364, align 4
  %v366 = call float @llvm.maxnum.f32(float %v365, float %v363)
  %v367 = fcmp oeq float %v366, 0xFFF0000000000000
  %v368 = select i1 %v367, float 0x0000000000000000, float %v366
  %v369 = insertelement <8 x float> poison, float %v368, i32 0
  %v370 = shufflevector <8 x float> %v369, <8 x float> poison, <8 x i32> zeroinitializer
  %v371 = fsub <8 x float> %v318, %v370
  %v372 = call <8 x float> @exp8(<8 x float> %v371)
  %v373 = getelementptr inbounds float, ptr %slot1, i64 32
  store <8 x float> %v372, ptr %v373, align 4
  %v374 = fadd <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %v372
  %v375 = fsub <8 x float> %v319, %v370
  %v376 = call <8 x float> @exp8(<8 x float> %v375)
  %v377 = getelementptr inbounds float, ptr %slot1, i64 40
  store <8 x float> %v376, ptr %v377, align 4
  %v378 = fadd <8 x float> %v374, %v376
  %v379 = call float @llvm.vector.reduce.fadd.v8f32(float 0x0000000000000000, <8 x float> %v378)
  %v380 = fsub float %v365, %v368
  %v381 = fcmp une float %v366, %v365
  %v382 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v320, <8 x float> %v321)
  %v383 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v382)
  %v384 = getelementptr inbounds float, ptr %state, i64 30
  %v385 = load float, ptr %v384, align 4
  %v386 = call float @llvm.maxnum.f32(float %v385, float %v383)
  %v387 = fcmp oeq float %v386, 0xFFF0000000000000
  %v388 = select i1 %v387, float 0x0000000000000000, float %v386
  %v389 = insertelement <8 x float> poison, float %v388, i32 0
  %v390 = shufflevector <8 x float> %v389, <8 x float> poison, <8 x i32> zeroinitializer
  %v391 = fsub <8 x float> %v320, %v390
  %v392 = call <8 x float> @exp8(<8 x float> %v391)
  %v393 = getelementptr inbounds float, ptr %slot1, i64 48
  store <8 x float> %v392, ptr %v393, align 4
  %v394 = fadd <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %v392
  %v395 = fsub <8 x float> %v321, %v390
  %v396 = call <8 x float> @exp8(<8 x float> %v395)
  %v397 = getelementptr inbounds float, ptr %slot1, i64 56
  store <8 x float> %v396, ptr %v397, align 4
  %v398 = fadd <8 x float> %v394, %v396
  %v399 = call float @llvm.vector.reduce.fadd.v8f32(float 0x0000000000000000, <8 x float> %v398)
  %v400 = fsub float %v385, %v388
  %v401 = fcmp une float %v386, %v385
  %v402 = insertelement <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, float %v340, i32 0
  %v403 = insertelement <8 x float> %v402, float %v360, i32 1
  %v404 = insertelement <8 x float> %v403, float %v380, i32 2
  %v405 = insertelement <8 x float> %v404, float %v400, i32 3
  %v406 = call <8 x float> @exp8(<8 x float> %v405)
  %v407 = extractelement <8 x float> %v406, i32 0
  %v408 = getelementptr inbounds float, ptr %state, i64 1
  %v409 = load float, ptr %v408, align 4
  %v410 = call float @llvm.fma.f32(float %v409, float %v407, float %v339)
  store float %v410, ptr %v408, align 4
  %v411 = getelementptr inbounds float, ptr %state, i64 0
  store float %v326, ptr %v411, align 4
  %v412 = insertelement <8 x float> poison, float %v407, i32 0
  %v413 = shufflevector <8 x float> %v412, <8 x float> poison, <8 x i32> zeroinitializer
  %v414 = or i1 false, %v341
  %v415 = extractelement <8 x float> %v406, i32 1
  %v416 = getelementptr inbounds float, ptr %state, i64 11
  %v417 = load float, ptr %v416, align 4
  %v418 = call float @llvm.fma.f32(float %v417, float %v415, float %v359)
  store float %v418, ptr %v416, align 4
  %v419 = getelementptr inbounds float, ptr %state, i64 10
  store float %v346, ptr %v419, align 4
  %v420 = insertelement <8 x float> poison, float %v415, i32 0
  %v421 = shufflevector <8 x float> %v420, <8 x float> poison, <8 x i32> zeroinitializer
  %v422 = or i1 %v414, %v361
  %v423 = extractelement <8 x float> %v406, i32 2
  %v424 = getelementptr inbounds float, ptr %state, i64 21
  %v425 = load float, ptr %v424, align 4
  %v426 = call float @llvm.fma.f32(float %v425, float %v423, float %v379)
  store float %v426, ptr %v424, align 4
  %v427 = getelementptr inbounds float, ptr %state, i64 20
  store float %v366, ptr %v427, align 4
  %v428 = insertelement <8 x float> poison, float %v423, i32 0
  %v429 = shufflevector <8 x float> %v428, <8 x float> poison, <8 x i32> zeroinitializer
  %v430 = or i1 %v422, %v381
  %v431 = extractelement <8 x float> %v406, i32 3
  %v432 = getelementptr inbounds float, ptr %state, i64 31
  %v433 = load float, ptr %v432, align 4
  %v434 = call float @llvm.fma.f32(float %v433, float %v431, float %v399)
  store float %v434, ptr %v432, align 4
  %v435 = getelementptr inbounds float, ptr %state, i64 30
  store float %v386, ptr %v435, align 4
  %v436 = insertelement <8 x float> poison, float %v431, i32 0
  %v437 = shufflevector <8 x float> %v436, <8 x float> poison, <8 x i32> zeroinitializer
  %v438 = or i1 %v430, %v401
  %v439 = sdiv i64 %cols, 4
  %v440 = mul i64 %v439, 4
  br i1 %v438, label %pv_scaled441, label %pv_plain442
pv_scaled441:
  %v444 = getelementptr inbounds float, ptr %state, i64 2
  %v445 = load <8 x float>, ptr %v444, align 4
  %v446 = fmul <8 x float> %v445, %v413
  %v447 = getelementptr inbounds float, ptr %state, i64 12
  %v448 = load <8 x float>, ptr %v447, align 4
  %v449 = fmul <8 x float> %v448, %v421
  %v450 = getelementptr inbounds float, ptr %state, i64 22
  %v451 = load <8 x float>, ptr %v450, align 4
  %v452 = fmul <8 x float> %v451, %v429
  %v453 = getelementptr inbounds float, ptr %state, i64 32
  %v454 = load <8 x float>, ptr %v453, align 4
  %v455 = fmul <8 x float> %v454, %v437
  br label %pre456
pre456:
  br label %head457
head457:
  %i461 = phi i64 [ 0, %pre456 ], [ %inext462, %latch459 ]
  %carry463 = phi <8 x float> [ %v446, %pre456 ], [ %carried464, %latch459 ]
  %carry465 = phi <8 x float> [ %v449, %pre456 ], [ %carried466, %latch459 ]
  %carry467 = phi <8 x float> [ %v452, %pre456 ], [ %carried468, %latch459 ]
  %carry469 = phi <8 x float> [ %v455, %pre456 ], [ %carried470, %latch459 ]
  %v471 = icmp slt i64 %i461, %v440
  br i1 %v471, label %body458, label %done460
body458:
  %v472 = add i64 %i461, 0
  %v473 = mul i64 %v472, 8
  %v474 = add i64 %v473, 0
  %v475 = getelementptr inbounds float, ptr %v, i64 %v474
  %v476 = load <8 x float>, ptr %v475, align 4
  %v477 = add i64 %v472, 0
  %v478 = getelementptr inbounds float, ptr %slot1, i64 %v477
  %v479 = load float, ptr %v478, align 4
  %v480 = insertelement <8 x float> poison, float %v479, i32 0
  %v481 = shufflevector <8 x float> %v480, <8 x float> poison, <8 x i32> zeroinitializer
  %v482 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v481, <8 x float> %v476, <8 x float> %carry463)
  %v483 = add i64 %v472, 16
  %v484 = getelementptr inbounds float, ptr %slot1, i64 %v483
  %v485 = load float, ptr %v484, align 4
  %v486 = insertelement <8 x float> poison, float %v485, i32 0
  %v487 = shufflevector <8 x float> %v486, <8 x float> poison, <8 x i32> zeroinitializer
  %v488 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v487, <8 x float> %v476, <8 x float> %carry465)
  %v489 = add i64 %v472, 32
  %v490 = getelementptr inbounds float, ptr %slot1, i64 %v489
  %v491 = load float, ptr %v490, align 4
  %v492 = insertelement <8 x float> poison, float %v491, i32 0
  %v493 = shufflevector <8 x float> %v492, <8 x float> poison, <8 x i32> zeroinitializer
  %v494 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v493, <8 x float> %v476, <8 x float> %carry467)
  %v495 = add i64 %v472, 48
  %v496 = getelementptr inbounds float, ptr %slot1, i64 %v495
  %v497 = load float, ptr %v496, align 4
  %v498 = insertelement <8 x float> poison, float %v497, i32 0
  %v499 = shufflevector <8 x float> %v498, <8 x float> poison, <8 x i32> zeroinitializer
  %v500 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v499, <8 x float> %v476, <8 x float> %carry469)
  %v501 = add i64 %i461, 1
  %v502 = mul i64 %v501, 8
  %v503 = add i64 %v502, 0
  %v504 = getelementptr inbounds float, ptr %v, i64 %v503
  %v505 = load <8 x float>, ptr %v504, align 4
  %v506 = add i64 %v501, 0
  %v507 = getelementptr inbounds float, ptr %slot1, i64 %v506
  %v508 = load float, ptr %v507, align 4
  %v509 = insertelement <8 x float> poison, float %v508, i32 0
  %v510 = shufflevector <8 x float> %v509, <8 x float> poison, <8 x i32> zeroinitializer
  %v511 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v510, <8 x float> %v505, <8 x float> %v482)
  %v512 = add i64 %v501, 16
  %v513 = getelementptr inbounds float, ptr %slot1, i64 %v512
  %v514 = load float, ptr %v513, align 4
  %v515 = insertelement <8 x float> poison, float %v514, i32 0
  %v516 = shufflevector <8 x float> %v515, <8 x float> poison, <8 x i32> zeroinitializer
  %v517 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v516, <8 x float> %v505, <8 x float> %v488)
  %v518 = add i64 %v501, 32
  %v519 = getelementptr inbounds float, ptr %slot1, i64 %v518
  %v520 = load float, ptr %v519, align 4
  %v521 = insertelement <8 x float> poison, float %v520, i32 0
  %v522 = shufflevector <8 x float> %v521, <8 x float> poison, <8 x i32> zeroinitializer
  %v523 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v522, <8 x float> %v505, <8 x float> %v494)
  %v524 = add i64 %v501, 48
  %v525 = getelementptr inbounds float, ptr %slot1, i64 %v524
  %v526 = load float, ptr %v525, align 4
  %v527 = insertelement <8 x float> poison, float %v526, i32 0
  %v528 = shufflevector <8 x float> %v527, <8 x float> poison, <8 x i32> zeroinitializer
  %v529 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v528, <8 x float> %v505, <8 x float> %v500)
  %v530 = add i64 %i461, 2
  %v531 = mul i64 %v530, 8
  %v532 = add i64 %v531, 0
  %v533 = getelementptr inbounds float, ptr %v, i64 %v532
  %v534 = load <8 x float>, ptr %v533, align 4
  %v535 = add i64 %v530, 0
  %v536 = getelementptr inbounds float, ptr %slot1, i64 %v535
  %v537 = load float, ptr %v536, align 4
  %v538 = insertelement <8 x float> poison, float %v537, i32 0
  %v539 = shufflevector <8 x float> %v538, <8 x float> poison, <8 x i32> zeroinitializer
  %v540 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v539, <8 x float> %v534, <8 x float> %v511)
  %v541 = add i64 %v530, 16
  %v542 = getelementptr inbounds float, ptr %slot1, i64 %v541
  %v543 = load float, ptr %v542, align 4
  %v544 = insertelement <8 x float> poison, float %v543, i32 0
  %v545 = shufflevector <8 x float> %v544, <8 x float> poison, <8 x i32> zeroinitializer
  %v546 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v545, <8 x float> %v534, <8 x float> %v517)
  %v547 = add i64 %v530, 32
  %v548 = getelementptr inbounds float, ptr %slot1, i64 %v547
  %v549 = load float, ptr %v548, align 4
  %v550 = insertelement <8 x float> poison, float %v549, i32 0
  %v551 = shufflevector <8 x float> %v550, <8 x float> poison, <8 x i32> zeroinitializer
  %v552 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v551, <8 x float> %v534, <8 x float> %v523)
  %v553 = add i64 %v530, 48
  %v554 = getelementptr inbounds float, ptr %slot1, i64 %v553
  %v555 = load float, ptr %v554, align 4
  %v556 = insertelement <8 x float> poison, float %v555, i32 0
  %v557 = shufflevector <8 x float> %v556, <8 x float> poison, <8 x i32> zeroinitializer
  %v558 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v557, <8 x float> %v534, <8 x float> %v529)
  %v559 = add i64 %i461, 3
  %v560 = mul i64 %v559, 8
  %v561 = add i64 %v560, 0
  %v562 = getelementptr inbounds float, ptr %v, i64 %v561
  %v563 = load <8 x float>, ptr %v562, align 4
  %v564 = add i64 %v559, 0
  %v565 = getelementptr inbounds float, ptr %slot1, i64 %v564
  %v566 = load float, ptr %v565, align 4
  %v567 = insertelement <8 x float> poison, float %v566, i32 0
  %v568 = shufflevector <8 x float> %v567, <8 x float> poison, <8 x i32> zeroinitializer
  %v569 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v568, <8 x float> %v563, <8 x float> %v540)
  %v570 = add i64 %v559, 16
  %v571 = getelementptr inbounds float, ptr %slot1, i64 %v570
  %v572 = load float, ptr %v571, align 4
  %v573 = insertelement <8 x float> poison, float %v572, i32 0
  %v574 = shufflevector <8 x float> %v573, <8 x float> poison, <8 x i32> zeroinitializer
  %v575 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v574, <8 x float> %v563, <8 x float> %v546)
  %v576 = add i64 %v559, 32
  %v577 = getelementptr inbounds float, ptr %slot1, i64 %v576
  %v578 = load float, ptr %v577, align 4
  %v579 = insertelement <8 x float> poison, float %v578, i32 0
  %v580 = shufflevector <8 x float> %v579, <8 x float> poison, <8 x i32> zeroinitializer
  %v581 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v580, <8 x float> %v563, <8 x float> %v552)
  %v582 = add i64 %v559, 48
  %v583 = getelementptr inbounds float, ptr %slot1, i64 %v582
  %v584 = load float, ptr %v583, align 4
  %v585 = insertelement <8 x float> poison, float %v584, i32 0
  %v586 = shufflevector <8 x float> %v585, <8 x float> poison, <8 x i32> zeroinitializer
  %v587 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v586, <8 x float> %v563, <8 x float> %v558)
  br label %latch459
latch459:
  %carried464 = select i1 true, <8 x float> %v569, <8 x float> %v569
  %carried466 = select i1 true, <8 x float> %v575, <8 x float> %v575
  %carried468 = select i1 true, <8 x float> %v581, <8 x float> %v581
  %carried470 = select i1 true, <8 x float> %v587, <8 x float> %v587
  %inext462 = add i64 %i461, 4
  br label %head457
done460:
  br label %pre588
pre588:
  br label %head589
head589:
  %i593 = phi i64 [ %v440, %pre588 ], [ %inext594, %latch591 ]
  %carry595 = phi <8 x float> [ %carry463, %pre588 ], [ %carried596, %latch591 ]
  %carry597 = phi <8 x float> [ %carry465, %pre588 ], [ %carried598, %latch591 ]
  %carry599 = phi <8 x float> [ %carry467, %pre588 ], [ %carried600, %latch591 ]
  %carry601 = phi <8 x float> [ %carry469, %pre588 ], [ %carried602, %latch591 ]
  %v603 = icmp slt i64 %i593, %cols
  br i1 %v603, label %body590, label %done592
body590:
  %v604 = mul i64 %i593, 8
  %v605 = add i64 %v604, 0
  %v606 = getelementptr inbounds float, ptr %v, i64 %v605
  %v607 = load <8 x float>, ptr %v606, align 4
  %v608 = add i64 %i593, 0
  %v609 = getelementptr inbounds float, ptr %slot1, i64 %v608
  %v610 = load float, ptr %v609, align 4
  %v611 = insertelement <8 x float> poison, float %v610, i32 0
  %v612 = shufflevector <8 x float> %v611, <8 x float> poison, <8 x i32> zeroinitializer
  %v613 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v612, <8 x float> %v607, <8 x float> %carry595)
  %v614 = add i64 %i593, 16
  %v615 = getelementptr inbounds float, ptr %slot1, i64 %v614
  %v616 = load float, ptr %v615, align 4
  %v617 = insertelement <8 x float> poison, float %v616, i32 0
  %v618 = shufflevector <8 x float> %v617, <8 x float> poison, <8 x i32> zeroinitializer
  %v619 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v618, <8 x float> %v607, <8 x float> %carry597)
  %v620 = add i64 %i593, 32
  %v621 = getelementptr inbounds float, ptr %slot1, i64 %v620
  %v622 = load float, ptr %v621, align 4
  %v623 = insertelement <8 x float> poison, float %v622, i32 0
  %v624 = shufflevector <8 x float> %v623, <8 x float> poison, <8 x i32> zeroinitializer
  %v625 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v624, <8 x float> %v607, <8 x float> %carry599)
  %v626 = add i64 %i593, 48
  %v627 = getelementptr inbounds float, ptr %slot1, i64 %v626
  %v628 = load float, ptr %v627, align 4
  %v629 = insertelement <8 x float> poison, float %v628, i32 0
  %v630 = shufflevector <8 x float> %v629, <8 x float> poison, <8 x i32> zeroinitializer
  %v631 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v630, <8 x float> %v607, <8 x float> %carry601)
  br label %latch591
latch591:
  %carried596 = select i1 true, <8 x float> %v613, <8 x float> %v613
  %carried598 = select i1 true, <8 x float> %v619, <8 x float> %v619
  %carried600 = select i1 true, <8 x float> %v625, <8 x float> %v625
  %carried602 = select i1 true, <8 x float> %v631, <8 x float> %v631
  %inext594 = add i64 %i593, 1
  br label %head589
done592:
  %v632 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry595, ptr %v632, align 4
  %v633 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry597, ptr %v633, align 4
  %v634 = getelementptr inbounds float, ptr %state, i64 22
  store <8 x float> %carry599, ptr %v634, align 4
  %v635 = getelementptr inbounds float, ptr %state, i64 32
  store <8 x float> %carry601, ptr %v635, align 4
  br label %pv_done443
pv_plain442:
  %v636 = getelementptr inbounds float, ptr %state, i64 2
  %v637 = load <8 x float>, ptr %v636, align 4
  %v638 = getelementptr inbounds float, ptr %state, i64 12
  %v639 = load <8 x float>, ptr %v638, align 4
  %v640 = getelementptr inbounds float, ptr %state, i64 22
  %v641 = load <8 x float>, ptr %v640, align 4
  %v642 = getelementptr inbounds float, ptr %state, i64 32
  %v643 = load <8 x float>, ptr %v642, align 4
  br label %pre644
pre644:
  br label %head645
head645:
  %i649 = phi i64 [ 0, %pre644 ], [ %inext650, %latch647 ]
  %carry651 = phi <8 x float> [ %v637, %pre644 ], [ %carried652, %latch647 ]
  %carry653 = phi <8 x float> [ %v639, %pre644 ], [ %carried654, %latch647 ]
  %carry655 = phi <8 x float> [ %v641, %pre644 ], [ %carried656, %latch647 ]
  %carry657 = phi <8 x float> [ %v643, %pre644 ], [ %carried658, %latch647 ]
  %v659 = icmp slt i64 %i649, %v440
  br i1 %v659, label %body646, label %done648
body646:
  %v660 = add i64 %i649, 0
  %v661 = mul i64 %v660, 8
  %v662 = add i64 %v661, 0
  %v663 = getelementptr inbounds float, ptr %v, i64 %v662
  %v664 = load <8 x float>, ptr %v663, align 4
  %v665 = add i64 %v660, 0
  %v666 = getelementptr inbounds float, ptr %slot1, i64 %v665
  %v667 = load float, ptr %v666, align 4
  %v668 = insertelement <8 x float> poison, float %v667, i32 0
  %v669 = shufflevector <8 x float> %v668, <8 x float> poison, <8 x i32> zeroinitializer
  %v670 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v669, <8 x float> %v664, <8 x float> %carry651)
  %v671 = add i64 %v660, 16
  %v672 = getelementptr inbounds float, ptr %slot1, i64 %v671
  %v673 = load float, ptr %v672, align 4
  %v674 = insertelement <8 x float> poison, float %v673, i32 0
  %v675 = shufflevector <8 x float> %v674, <8 x float> poison, <8 x i32> zeroinitializer
  %v676 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v675, <8 x float> %v664, <8 x float> %carry653)
  %v677 = add i64 %v660, 32
  %v678 = getelementptr inbounds float, ptr %slot1, i64 %v677
  %v679 = load float, ptr %v678, align 4
  %v680 = insertelement <8 x float> poison, float %v679, i32 0
  %v681 = shufflevector <8 x float> %v680, <8 x float> poison, <8 x i32> zeroinitializer
  %v682 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v681, <8 x float> %v664, <8 x float> %carry655)
  %v683 = add i64 %v660, 48
  %v684 = getelementptr inbounds float, ptr %slot1, i64 %v683
  %v685 = load float, ptr %v684, align 4
  %v686 = insertelement <8 x float> poison, float %v685, i32 0
  %v687 = shufflevector <8 x float> %v686, <8 x float> poison, <8 x i32> zeroinitializer
  %v688 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v687, <8 x float> %v664, <8 x float> %carry657)
  %v689 = add i64 %i649, 1
  %v690 = mul i64 %v689, 8
  %v691 = add i64 %v690, 0
  %v692 = getelementptr inbounds float, ptr %v, i64 %v691
  %v693 = load <8 x float>, ptr %v692, align 4
  %v694 = add i64 %v689, 0
  %v695 = getelementptr inbounds float, ptr %slot1, i64 %v694
  %v696 = load float, ptr %v695, align 4
  %v697 = insertelement <8 x float> poison, float %v696, i32 0
  %v698 = shufflevector <8 x float> %v697, <8 x float> poison, <8 x i32> zeroinitializer
  %v699 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v698, <8 x float> %v693, <8 x float> %v670)
  %v700 = add i64 %v689, 16
  %v701 = getelementptr inbounds float, ptr %slot1, i64 %v700
  %v702 = load float, ptr %v701, align 4
  %v703 = insertelement <8 x float> poison, float %v702, i32 0
  %v704 = shufflevector <8 x float> %v703, <8 x float> poison, <8 x i32> zeroinitializer
  %v705 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v704, <8 x float> %v693, <8 x float> %v676)
  %v706 = add i64 %v689, 32
  %v707 = getelementptr inbounds float, ptr %slot1, i64 %v706
  %v708 = load float, ptr %v707, align 4
  %v709 = insertelement <8 x float> poison, float %v708, i32 0
  %v710 = shufflevector <8 x float> %v709, <8 x float> poison, <8 x i32> zeroinitializer
  %v711 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v710, <8 x float> %v693, <8 x float> %v682)
  %v712 = add i64 %v689, 48
  %v713 = getelementptr inbounds float, ptr %slot1, i64 %v712
  %v714 = load float, ptr %v713, align 4
  %v715 = insertelement <8 x float> poison, float %v714, i32 0
  %v716 = shufflevector <8 x float> %v715, <8 x float> poison, <8 x i32> zeroinitializer
  %v717 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v716, <8 x float> %v693, <8 x float> %v688)
  %v718 = add i64 %i649, 2
  %v719 = mul i64 %v718, 8
  %v720 = add i64 %v719, 0
  %v721 = getelementptr inbounds float, ptr %v, i64 %v720
  %v722 = load <8 x float>, ptr %v721, align 4
  %v723 = add i64 %v718, 0
  %v724 = getelementptr inbounds float, ptr %slot1, i64 %v723
  %v725 = load float, ptr %v724, align 4
  %v726 = insertelement <8 x float> poison, float %v725, i32 0
  %v727 = shufflevector <8 x float> %v726, <8 x float> poison, <8 x i32> zeroinitializer
  %v728 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v727, <8 x float> %v722, <8 x float> %v699)
  %v729 = add i64 %v718, 16
  %v730 = getelementptr inbounds float, ptr %slot1, i64 %v729
  %v731 = load float, ptr %v730, align 4
  %v732 = insertelement <8 x float> poison, float %v731, i32 0
  %v733 = shufflevector <8 x float> %v732, <8 x float> poison, <8 x i32> zeroinitializer
  %v734 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v733, <8 x float> %v722, <8 x float> %v705)
  %v735 = add i64 %v718, 32
  %v736 = getelementptr inbounds float, ptr %slot1, i64 %v735
  %v737 = load float, ptr %v736, align 4
  %v738 = insertelement <8 x float> poison, float %v737, i32 0
  %v739 = shufflevector <8 x float> %v738, <8 x float> poison, <8 x i32> zeroinitializer
  %v740 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v739, <8 x float> %v722, <8 x float> %v711)
  %v741 = add i64 %v718, 48
  %v742 = getelementptr inbounds float, ptr %slot1, i64 %v741
  %v743 = load float, ptr %v742, align 4
  %v744 = insertelement <8 x float> poison, float %v743, i32 0
  %v745 = shufflevector <8 x float> %v744, <8 x float> poison, <8 x i32> zeroinitializer
  %v746 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v745, <8 x float> %v722, <8 x float> %v717)
  %v747 = add i64 %i649, 3
  %v748 = mul i64 %v747, 8
  %v749 = add i64 %v748, 0
  %v750 = getelementptr inbounds float, ptr %v, i64 %v749
  %v751 = load <8 x float>, ptr %v750, align 4
  %v752 = add i64 %v747, 0
  %v753 = getelementptr inbounds float, ptr %slot1, i64 %v752
  %v754 = load float, ptr %v753, align 4
  %v755 = insertelement <8 x float> poison, float %v754, i32 0
  %v756 = shufflevector <8 x float> %v755, <8 x float> poison, <8 x i32> zeroinitializer
  %v757 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v756, <8 x float> %v751, <8 x float> %v728)
  %v758 = add i64 %v747, 16
  %v759 = getelementptr inbounds float, ptr %slot1, i64 %v758
  %v760 = load float, ptr %v759, align 4
  %v761 = insertelement <8 x float> poison, float %v760, i32 0
  %v762 = shufflevector <8 x float> %v761, <8 x float> poison, <8 x i32> zeroinitializer
  %v763 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v762, <8 x float> %v751, <8 x float> %v734)
  %v764 = add i64 %v747, 32
  %v765 = getelementptr inbounds float, ptr %slot1, i64 %v764
  %v766 = load float, ptr %v765, align 4
  %v767 = insertelement <8 x float> poison, float %v766, i32 0
  %v768 = shufflevector <8 x float> %v767, <8 x float> poison, <8 x i32> zeroinitializer
  %v769 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v768, <8 x float> %v751, <8 x float> %v740)
  %v770 = add i64 %v747, 48
  %v771 = getelementptr inbounds float, ptr %slot1, i64 %v770
  %v772 = load float, ptr %v771, align 4
  %v773 = insertelement <8 x float> poison, float %v772, i32 0
  %v774 = shufflevector <8 x float> %v773, <8 x float> poison, <8 x i32> zeroinitializer
  %v775 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v774, <8 x float> %v751, <8 x float> %v746)
  br label %latch647
latch647:
  %carried652 = select i1 true, <8 x float> %v757, <8 x float> %v757
  %carried654 = select i1 true, <8 x float> %v763, <8 x float> %v763
  %carried656 = select i1 true, <8 x float> %v769, <8 x float> %v769
  %carried658 = select i1 true, <8 x float> %v775, <8 x float> %v775
  %inext650 = add i64 %i649, 4
  br label %head645
done648:
  br label %pre776
pre776:
  br label %head777
head777:
  %i781 = phi i64 [ %v440, %pre776 ], [ %inext782, %latch779 ]
  %carry783 = phi <8 x float> [ %carry651, %pre776 ], [ %carried784, %latch779 ]
  %carry785 = phi <8 x float> [ %carry653, %pre776 ], [ %carried786, %latch779 ]
  %carry787 = phi <8 x float> [ %carry655, %pre776 ], [ %carried788, %latch779 ]
  %carry789 = phi <8 x float> [ %carry657, %pre776 ], [ %carried790, %latch779 ]
  %v791 = icmp slt i64 %i781, %cols
  br i1 %v791, label %body778, label %done780
body778:
  %v792 = mul i64 %i781, 8
  %v793 = add i64 %v792, 0
  %v794 = getelementptr inbounds float, ptr %v, i64 %v793
  %v795 = load <8 x float>, ptr %v794, align 4
  %v796 = add i64 %i781, 0
  %v797 = getelementptr inbounds float, ptr %slot1, i64 %v796
  %v798 = load float, ptr %v797, align 4
  %v799 = insertelement <8 x float> poison, float %v798, i32 0
  %v800 = shufflevector <8 x float> %v799, <8 x float> poison, <8 x i32> zeroinitializer
  %v801 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v800, <8 x float> %v795, <8 x float> %carry783)
  %v802 = add i64 %i781, 16
  %v803 = getelementptr inbounds float, ptr %slot1, i64 %v802
  %v804 = load float, ptr %v803, align 4
  %v805 = insertelement <8 x float> poison, float %v804, i32 0
  %v806 = shufflevector <8 x float> %v805, <8 x float> poison, <8 x i32> zeroinitializer
  %v807 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v806, <8 x float> %v795, <8 x float> %carry785)
  %v808 = add i64 %i781, 32
  %v809 = getelementptr inbounds float, ptr %slot1, i64 %v808
  %v810 = load float, ptr %v809, align 4
  %v811 = insertelement <8 x float> poison, float %v810, i32 0
  %v812 = shufflevector <8 x float> %v811, <8 x float> poison, <8 x i32> zeroinitializer
  %v813 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v812, <8 x float> %v795, <8 x float> %carry787)
  %v814 = add i64 %i781, 48
  %v815 = getelementptr inbounds float, ptr %slot1, i64 %v814
  %v816 = load float, ptr %v815, align 4
  %v817 = insertelement <8 x float> poison, float %v816, i32 0
  %v818 = shufflevector <8 x float> %v817, <8 x float> poison, <8 x i32> zeroinitializer
  %v819 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v818, <8 x float> %v795, <8 x float> %carry789)
  br label %latch779
latch779:
  %carried784 = select i1 true, <8 x float> %v801, <8 x float> %v801
  %carried786 = select i1 true, <8 x float> %v807, <8 x float> %v807
  %carried788 = select i1 true, <8 x float> %v813, <8 x float> %v813
  %carried790 = select i1 true, <8 x float> %v819, <8 x float> %v819
  %inext782 = add i64 %i781, 1
  br label %head777
done780:
  %v820 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry783, ptr %v820, align 4
  %v821 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry785, ptr %v821, align 4
  %v822 = getelementptr inbounds float, ptr %state, i64 22
  store <8 x float> %carry787, ptr %v822, align 4
  %v823 = getelementptr inbounds float, ptr %state, i64 32
  store <8 x float> %carry789, ptr %v823, align 4
  br label %pv_done443
pv_done443:
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
  %v149 = insertelement <8 x float> poison, float %scale, i32 0
  %v150 = shufflevector <8 x float> %v149, <8 x float> poison, <8 x i32> zeroinitializer
  %v151 = fmul <8 x float> %carry9, %v150
  %v152 = fmul <8 x float> %carry11, %v150
  %v153 = fmul <8 x float> %carry13, %v150
  %v154 = fmul <8 x float> %carry15, %v150
  br label %nomask157
nomask157:
  br i1 %masked, label %mask155, label %masked156
mask155:
  %v158 = trunc i64 %cols to i32
  %v159 = insertelement <8 x i32> poison, i32 %v158, i32 0
  %v160 = shufflevector <8 x i32> %v159, <8 x i32> poison, <8 x i32> zeroinitializer
  %v161 = trunc i64 %diff to i32
  %v162 = add i32 %v161, 0
  %v163 = insertelement <8 x i32> poison, i32 %v162, i32 0
  %v164 = shufflevector <8 x i32> %v163, <8 x i32> poison, <8 x i32> zeroinitializer
  %v165 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v160
  %v166 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v164
  %v167 = and <8 x i1> %v165, %v166
  %v168 = select <8 x i1> %v167, <8 x float> %v151, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v169 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v160
  %v170 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v164
  %v171 = and <8 x i1> %v169, %v170
  %v172 = select <8 x i1> %v171, <8 x float> %v152, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v173 = add i32 %v161, 1
  %v174 = insertelement <8 x i32> poison, i32 %v173, i32 0
  %v175 = shufflevector <8 x i32> %v174, <8 x i32> poison, <8 x i32> zeroinitializer
  %v176 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v160
  %v177 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v175
  %v178 = and <8 x i1> %v176, %v177
  %v179 = select <8 x i1> %v178, <8 x float> %v153, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v180 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v160
  %v181 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v175
  %v182 = and <8 x i1> %v180, %v181
  %v183 = select <8 x i1> %v182, <8 x float> %v154, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  br label %masked156
masked156:
  %v184 = phi <8 x float> [ %v151, %nomask157 ], [ %v168, %mask155 ]
  %v185 = phi <8 x float> [ %v152, %nomask157 ], [ %v172, %mask155 ]
  %v186 = phi <8 x float> [ %v153, %nomask157 ], [ %v179, %mask155 ]
  %v187 = phi <8 x float> [ %v154, %nomask157 ], [ %v183, %mask155 ]
  %v188 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v184, <8 x float> %v185)
  %v189 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v188)
  %v190 = getelementptr inbounds float, ptr %state, i64 0
  %v191 = load float, ptr %v190, align 4
  %v192 = call float @llvm.maxnum.f32(float %v191, float %v189)
  %v193 = fcmp oeq float %v192, 0xFFF0000000000000
  %v194 = select i1 %v193, float 0x0000000000000000, float %v192
  %v195 = insertelement <8 x float> poison, float %v194, i32 0
  %v196 = shufflevector <8 x float> %v195, <8 x float> poison, <8 x i32> zeroinitializer
  %v197 = fsub <8 x float> %v184, %v196
  %v198 = call <8 x float> @exp8(<8 x float> %v197)
  %v199 = getelementptr inbounds float, ptr %slot1, i64 0
  store <8 x float> %v198, ptr %v199, align 4
  %v200 = fadd <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %v198
  %v201 = fsub <8 x float> %v185, %v196
  %v202 = call <8 x float> @exp8(<8 x float> %v201)
  %v203 = getelementptr inbounds float, ptr %slot1, i64 8
  store <8 x float> %v202, ptr %v203, align 4
  %v204 = fadd <8 x float> %v200, %v202
  %v205 = call float @llvm.vector.reduce.fadd.v8f32(float 0x0000000000000000, <8 x float> %v204)
  %v206 = fsub float %v191, %v194
  %v207 = fcmp une float %v192, %v191
  %v208 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v186, <8 x float> %v187)
  %v209 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v208)
  %v210 = getelementptr inbounds float, ptr %state, i64 10
  %v211 = load float, ptr %v210, align 4
  %v212 = call float @llvm.maxnum.f32(float %v211, float %v209)
  %v213 = fcmp oeq float %v212, 0xFFF0000000000000
  %v214 = select i1 %v213, float 0x0000000000000000, float %v212
  %v215 = insertelement <8 x float> poison, float %v214, i32 0
  %v216 = shufflevector <8 x float> %v215, <8 x float> poison, <8 x i32> zeroinitializer
  %v217 = fsub <8 x float> %v186, %v216
  %v218 = call <8 x float> @exp8(<8 x float> %v217)
  %v219 = getelementptr inbounds float, ptr %slot1, i64 16
  store <8 x float> %v218, ptr %v219, align 4
  %v220 = fadd <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %v218
  %v221 = fsub <8 x float> %v187, %v216
  %v222 = call <8 x float> @exp8(<8 x float> %v221)
  %v223 = getelementptr inbounds float, ptr %slot1, i64 24
  store <8 x float> %v222, ptr %v223, align 4
  %v224 = fadd <8 x float> %v220, %v222
  %v225 = call float @llvm.vector.reduce.fadd.v8f32(float 0x0000000000000000, <8 x float> %v224)
  %v226 = fsub float %v211, %v214
  %v227 = fcmp une float %v212, %v211
  %v228 = insertelement <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, float %v206, i32 0
  %v229 = insertelement <8 x float> %v228, float %v226, i32 1
  %v230 = call <8 x float> @exp8(<8 x float> %v229)
  %v231 = extractelement <8 x float> %v230, i32 0
  %v232 = getelementptr inbounds float, ptr %state, i64 1
  %v233 = load float, ptr %v232, align 4
  %v234 = call float @llvm.fma.f32(float %v233, float %v231, float %v205)
  store float %v234, ptr %v232, align 4
  %v235 = getelementptr inbounds float, ptr %state, i64 0
  store float %v192, ptr %v235, align 4
  %v236 = insertelement <8 x float> poison, float %v231, i32 0
  %v237 = shufflevector <8 x float> %v236, <8 x float> poison, <8 x i32> zeroinitializer
  %v238 = or i1 false, %v207
  %v239 = extractelement <8 x float> %v230, i32 1
  %v240 = getelementptr inbounds float, ptr %state, i64 11
  %v241 = load float, ptr %v240, align 4
  %v242 = call float @llvm.fma.f32(float %v241, float %v239, float %v225)
  store float %v242, ptr %v240, align 4
  %v243 = getelementptr inbounds float, ptr %state, i64 10
  store float %v212, ptr %v243, align 4
  %v244 = insertelement <8 x float> poison, float %v239, i32 0
  %v245 = shufflevector <8 x float> %v244, <8 x float> poison, <8 x i32> zeroinitializer
  %v246 = or i1 %v238, %v227
  %v247 = sdiv i64 %cols, 4
  %v248 = mul i64 %v247, 4
  br i1 %v246, label %pv_scaled249, label %pv_plain250
pv_scaled249:
  %v252 = getelementptr inbounds float, ptr %state, i64 2
  %v253 = load <8 x float>, ptr %v252, align 4
  %v254 = fmul <8 x float> %v253, %v237
  %v255 = getelementptr inbounds float, ptr %state, i64 12
  %v256 = load <8 x float>, ptr %v255, align 4
  %v257 = fmul <8 x float> %v256, %v245
  br label %pre258
pre258:
  br label %head259
head259:
  %i263 = phi i64 [ 0, %pre258 ], [ %inext264, %latch261 ]
  %carry265 = phi <8 x float> [ %v254, %pre258 ], [ %carried266, %latch261 ]
  %carry267 = phi <8 x float> [ %v257, %pre258 ], [ %carried268, %latch261 ]
  %v269 = icmp slt i64 %i263, %v248
  br i1 %v269, label %body260, label %done262
body260:
  %v270 = add i64 %i263, 0
  %v271 = mul i64 %v270, 8
  %v272 = add i64 %v271, 0
  %v273 = getelementptr inbounds float, ptr %v, i64 %v272
  %v274 = load <8 x float>, ptr %v273, align 4
  %v275 = add i64 %v270, 0
  %v276 = getelementptr inbounds float, ptr %slot1, i64 %v275
  %v277 = load float, ptr %v276, align 4
  %v278 = insertelement <8 x float> poison, float %v277, i32 0
  %v279 = shufflevector <8 x float> %v278, <8 x float> poison, <8 x i32> zeroinitializer
  %v280 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v279, <8 x float> %v274, <8 x float> %carry265)
  %v281 = add i64 %v270, 16
  %v282 = getelementptr inbounds float, ptr %slot1, i64 %v281
  %v283 = load float, ptr %v282, align 4
  %v284 = insertelement <8 x float> poison, float %v283, i32 0
  %v285 = shufflevector <8 x float> %v284, <8 x float> poison, <8 x i32> zeroinitializer
  %v286 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v285, <8 x float> %v274, <8 x float> %carry267)
  %v287 = add i64 %i263, 1
  %v288 = mul i64 %v287, 8
  %v289 = add i64 %v288, 0
  %v290 = getelementptr inbounds float, ptr %v, i64 %v289
  %v291 = load <8 x float>, ptr %v290, align 4
  %v292 = add i64 %v287, 0
  %v293 = getelementptr inbounds float, ptr %slot1, i64 %v292
  %v294 = load float, ptr %v293, align 4
  %v295 = insertelement <8 x float> poison, float %v294, i32 0
  %v296 = shufflevector <8 x float> %v295, <8 x float> poison, <8 x i32> zeroinitializer
  %v297 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v296, <8 x float> %v291, <8 x float> %v280)
  %v298 = add i64 %v287, 16
  %v299 = getelementptr inbounds float, ptr %slot1, i64 %v298
  %v300 = load float, ptr %v299, align 4
  %v301 = insertelement <8 x float> poison, float %v300, i32 0
  %v302 = shufflevector <8 x float> %v301, <8 x float> poison, <8 x i32> zeroinitializer
  %v303 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v302, <8 x float> %v291, <8 x float> %v286)
  %v304 = add i64 %i263, 2
  %v305 = mul i64 %v304, 8
  %v306 = add i64 %v305, 0
  %v307 = getelementptr inbounds float, ptr %v, i64 %v306
  %v308 = load <8 x float>, ptr %v307, align 4
  %v309 = add i64 %v304, 0
  %v310 = getelementptr inbounds float, ptr %slot1, i64 %v309
  %v311 = load float, ptr %v310, align 4
  %v312 = insertelement <8 x float> poison, float %v311, i32 0
  %v313 = shufflevector <8 x float> %v312, <8 x float> poison, <8 x i32> zeroinitializer
  %v314 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v313, <8 x float> %v308, <8 x float> %v297)
  %v315 = add i64 %v304, 16
  %v316 = getelementptr inbounds float, ptr %slot1, i64 %v315
  %v317 = load float, ptr %v316, align 4
  %v318 = insertelement <8 x float> poison, float %v317, i32 0
  %v319 = shufflevector <8 x float> %v318, <8 x float> poison, <8 x i32> zeroinitializer
  %v320 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v319, <8 x float> %v308, <8 x float> %v303)
  %v321 = add i64 %i263, 3
  %v322 = mul i64 %v321, 8
  %v323 = add i64 %v322, 0
  %v324 = getelementptr inbounds float, ptr %v, i64 %v323
  %v325 = load <8 x float>, ptr %v324, align 4
  %v326 = add i64 %v321, 0
  %v327 = getelementptr inbounds float, ptr %slot1, i64 %v326
  %v328 = load float, ptr %v327, align 4
  %v329 = insertelement <8 x float> poison, float %v328, i32 0
  %v330 = shufflevector <8 x float> %v329, <8 x float> poison, <8 x i32> zeroinitializer
  %v331 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v330, <8 x float> %v325, <8 x float> %v314)
  %v332 = add i64 %v321, 16
  %v333 = getelementptr inbounds float, ptr %slot1, i64 %v332
  %v334 = load float, ptr %v333, align 4
  %v335 = insertelement <8 x float> poison, float %v334, i32 0
  %v336 = shufflevector <8 x float> %v335, <8 x float> poison, <8 x i32> zeroinitializer
  %v337 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v336, <8 x float> %v325, <8 x float> %v320)
  br label %latch261
latch261:
  %carried266 = select i1 true, <8 x float> %v331, <8 x float> %v331
  %carried268 = select i1 true, <8 x float> %v337, <8 x float> %v337
  %inext264 = add i64 %i263, 4
  br label %head259
done262:
  br label %pre338
pre338:
  br label %head339
head339:
  %i343 = phi i64 [ %v248, %pre338 ], [ %inext344, %latch341 ]
  %carry345 = phi <8 x float> [ %carry265, %pre338 ], [ %carried346, %latch341 ]
  %carry347 = phi <8 x float> [ %carry267, %pre338 ], [ %carried348, %latch341 ]
  %v349 = icmp slt i64 %i343, %cols
  br i1 %v349, label %body340, label %done342
body340:
  %v350 = mul i64 %i343, 8
  %v351 = add i64 %v350, 0
  %v352 = getelementptr inbounds float, ptr %v, i64 %v351
  %v353 = load <8 x float>, ptr %v352, align 4
  %v354 = add i64 %i343, 0
  %v355 = getelementptr inbounds float, ptr %slot1, i64 %v354
  %v356 = load float, ptr %v355, align 4
  %v357 = insertelement <8 x float> poison, float %v356, i32 0
  %v358 = shufflevector <8 x float> %v357, <8 x float> poison, <8 x i32> zeroinitializer
  %v359 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v358, <8 x float> %v353, <8 x float> %carry345)
  %v360 = add i64 %i343, 16
  %v361 = getelementptr inbounds float, ptr %slot1, i64 %v360
  %v362 = load float, ptr %v361, align 4
  %v363 = insertelement <8 x float> poison, float %v362, i32 0
  %v364 = shufflevector <8 x float> %v363, <8 x float> poison, <8 x i32> zeroinitializer
  %v365 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v364, <8 x float> %v353, <8 x float> %carry347)
  br label %latch341
latch341:
  %carried346 = select i1 true, <8 x float> %v359, <8 x float> %v359
  %carried348 = select i1 true, <8 x float> %v365, <8 x float> %v365
  %inext344 = add i64 %i343, 1
  br label %head339
done342:
  %v366 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry345, ptr %v366, align 4
  %v367 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry347, ptr %v367, align 4
  br label %pv_done251
pv_plain250:
  %v368 = getelementptr inbounds float, ptr %state, i64 2
  %v369 = load <8 x float>, ptr %v368, align 4
  %v370 = getelementptr inbounds float, ptr %state, i64 12
  %v371 = load <8 x float>, ptr %v370, align 4
  br label %pre372
pre372:
  br label %head373
head373:
  %i377 = phi i64 [ 0, %pre372 ], [ %inext378, %latch375 ]
  %carry379 = phi <8 x float> [ %v369, %pre372 ], [ %carried380, %latch375 ]
  %carry381 = phi <8 x float> [ %v371, %pre372 ], [ %carried382, %latch375 ]
  %v383 = icmp slt i64 %i377, %v248
  br i1 %v383, label %body374, label %done376
body374:
  %v384 = add i64 %i377, 0
  %v385 = mul i64 %v384, 8
  %v386 = add i64 %v385, 0
  %v387 = getelementptr inbounds float, ptr %v, i64 %v386
  %v388 = load <8 x float>, ptr %v387, align 4
  %v389 = add i64 %v384, 0
  %v390 = getelementptr inbounds float, ptr %slot1, i64 %v389
  %v391 = load float, ptr %v390, align 4
  %v392 = insertelement <8 x float> poison, float %v391, i32 0
  %v393 = shufflevector <8 x float> %v392, <8 x float> poison, <8 x i32> zeroinitializer
  %v394 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v393, <8 x float> %v388, <8 x float> %carry379)
  %v395 = add i64 %v384, 16
  %v396 = getelementptr inbounds float, ptr %slot1, i64 %v395
  %v397 = load float, ptr %v396, align 4
  %v398 = insertelement <8 x float> poison, float %v397, i32 0
  %v399 = shufflevector <8 x float> %v398, <8 x float> poison, <8 x i32> zeroinitializer
  %v400 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v399, <8 x float> %v388, <8 x float> %carry381)
  %v401 = add i64 %i377, 1
  %v402 = mul i64 %v401, 8
  %v403 = add i64 %v402, 0
  %v404 = getelementptr inbounds float, ptr %v, i64 %v403
  %v405 = load <8 x float>, ptr %v404, align 4
  %v406 = add i64 %v401, 0
  %v407 = getelementptr inbounds float, ptr %slot1, i64 %v406
  %v408 = load float, ptr %v407, align 4
  %v409 = insertelement <8 x float> poison, float %v408, i32 0
  %v410 = shufflevector <8 x float> %v409, <8 x float> poison, <8 x i32> zeroinitializer
  %v411 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v410, <8 x float> %v405, <8 x float> %v394)
  %v412 = add i64 %v401, 16
  %v413 = getelementptr inbounds float, ptr %slot1, i64 %v412
  %v414 = load float, ptr %v413, align 4
  %v415 = insertelement <8 x float> poison, float %v414, i32 0
  %v416 = shufflevector <8 x float> %v415, <8 x float> poison, <8 x i32> zeroinitializer
  %v417 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v416, <8 x float> %v405, <8 x float> %v400)
  %v418 = add i64 %i377, 2
  %v419 = mul i64 %v418, 8
  %v420 = add i64 %v419, 0
  %v421 = getelementptr inbounds float, ptr %v, i64 %v420
  %v422 = load <8 x float>, ptr %v421, align 4
  %v423 = add i64 %v418, 0
  %v424 = getelementptr inbounds float, ptr %slot1, i64 %v423
  %v425 = load float, ptr %v424, align 4
  %v426 = insertelement <8 x float> poison, float %v425, i32 0
  %v427 = shufflevector <8 x float> %v426, <8 x float> poison, <8 x i32> zeroinitializer
  %v428 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v427, <8 x float> %v422, <8 x float> %v411)
  %v429 = add i64 %v418, 16
  %v430 = getelementptr inbounds float, ptr %slot1, i64 %v429
  %v431 = load float, ptr %v430, align 4
  %v432 = insertelement <8 x float> poison, float %v431, i32 0
  %v433 = shufflevector <8 x float> %v432, <8 x float> poison, <8 x i32> zeroinitializer
  %v434 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v433, <8 x float> %v422, <8 x float> %v417)
  %v435 = add i64 %i377, 3
  %v436 = mul i64 %v435, 8
  %v437 = add i64 %v436, 0
  %v438 = getelementptr inbounds float, ptr %v, i64 %v437
  %v439 = load <8 x float>, ptr %v438, align 4
  %v440 = add i64 %v435, 0
  %v441 = getelementptr inbounds float, ptr %slot1, i64 %v440
  %v442 = load float, ptr %v441, align 4
  %v443 = insertelement <8 x float> poison, float %v442, i32 0
  %v444 = shufflevector <8 x float> %v443, <8 x float> poison, <8 x i32> zeroinitializer
  %v445 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v444, <8 x float> %v439, <8 x float> %v428)
  %v446 = add i64 %v435, 16
  %v447 = getelementptr inbounds float, ptr %slot1, i64 %v446
  %v448 = load float, ptr %v447, align 4
  %v449 = insertelement <8 x float> poison, float %v448, i32 0
  %v450 = shufflevector <8 x float> %v449, <8 x float> poison, <8 x i32> zeroinitializer
  %v451 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v450, <8 x float> %v439, <8 x float> %v434)
  br label %latch375
latch375:
  %carried380 = select i1 true, <8 x float> %v445, <8 x float> %v445
  %carried382 = select i1 true, <8 x float> %v451, <8 x float> %v451
  %inext378 = add i64 %i377, 4
  br label %head373
done376:
  br label %pre452
pre452:
  br label %head453
head453:
  %i457 = phi i64 [ %v248, %pre452 ], [ %inext458, %latch455 ]
  %carry459 = phi <8 x float> [ %carry379, %pre452 ], [ %carried460, %latch455 ]
  %carry461 = phi <8 x float> [ %carry381, %pre452 ], [ %carried462, %latch455 ]
  %v463 = icmp slt i64 %i457, %cols
  br i1 %v463, label %body454, label %done456
body454:
  %v464 = mul i64 %i457, 8
  %v465 = add i64 %v464, 0
  %v466 = getelementptr inbounds float, ptr %v, i64 %v465
  %v467 = load <8 x float>, ptr %v466, align 4
  %v468 = add i64 %i457, 0
  %v469 = getelementptr inbounds float, ptr %slot1, i64 %v468
  %v470 = load float, ptr %v469, align 4
  %v471 = insertelement <8 x float> poison, float %v470, i32 0
  %v472 = shufflevector <8 x float> %v471, <8 x float> poison, <8 x i32> zeroinitializer
  %v473 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v472, <8 x float> %v467, <8 x float> %carry459)
  %v474 = add i64 %i457, 16
  %v475 = getelementptr inbounds float, ptr %slot1, i64 %v474
  %v476 = load float, ptr %v475, align 4
  %v477 = insertelement <8 x float> poison, float %v476, i32 0
  %v478 = shufflevector <8 x float> %v477, <8 x float> poison, <8 x i32> zeroinitializer
  %v479 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v478, <8 x float> %v467, <8 x float> %carry461)
  br label %latch455
latch455:
  %carried460 = select i1 true, <8 x float> %v473, <8 x float> %v473
  %carried462 = select i1 true, <8 x float> %v479, <8 x float> %v479
  %inext458 = add i64 %i457, 1
  br label %head453
done456:
  %v480 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %carry459, ptr %v480, align 4
  %v481 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %carry461, ptr %v481, align 4
  br label %pv_done251
pv_done251:
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
  br label %pre24
pre24:
  br label %head21
head21:
  %i25 = phi i64 [ 0, %pre24 ], [ %inext26, %latch27 ]
  %v28 = icmp slt i64 %i25, %v12
  br i1 %v28, label %body22, label %done23
body22:
  %v29 = add i64 %i25, 256
  %v30 = call i64 @llvm.smin.i64(i64 %v29, i64 %v12)
  %v31 = add i64 %v16, %i25
  %v32 = add i64 %v16, %v30
  %v33 = sub i64 %v32, 1
  %v34 = add i64 %v33, 1
  %v35 = sub i64 %v34, %v18
  %v36 = call i64 @llvm.smax.i64(i64 %v35, i64 0)
  %v37 = call i64 @llvm.smin.i64(i64 %v36, i64 %v14)
  br label %pre41
pre41:
  br label %head38
head38:
  %i42 = phi i64 [ 0, %pre41 ], [ %inext43, %latch44 ]
  %v45 = icmp slt i64 %i42, %v37
  br i1 %v45, label %body39, label %done40
body39:
  %v46 = sub i64 %v37, %i42
  %v47 = call i64 @llvm.smin.i64(i64 %v46, i64 16)
  br label %pre51
pre51:
  br label %head48
head48:
  %i52 = phi i64 [ 0, %pre51 ], [ %inext53, %latch54 ]
  %v55 = icmp slt i64 %i52, %v47
  br i1 %v55, label %body49, label %done50
body49:
  %v56 = add i64 %i42, %i52
  %v57 = mul i64 %v56, %v10
  %v58 = getelementptr inbounds float, ptr %v4, i64 %v57
  %v59 = getelementptr inbounds float, ptr %v58, i64 0
  %v60 = load float, ptr %v59, align 4
  %v61 = add i64 %i52, 0
  %v62 = getelementptr inbounds float, ptr %slot7, i64 %v61
  store float %v60, ptr %v62, align 4
  %v63 = getelementptr inbounds float, ptr %v58, i64 1
  %v64 = load float, ptr %v63, align 4
  %v65 = add i64 %i52, 16
  %v66 = getelementptr inbounds float, ptr %slot7, i64 %v65
  store float %v64, ptr %v66, align 4
  %v67 = getelementptr inbounds float, ptr %v58, i64 2
  %v68 = load float, ptr %v67, align 4
  %v69 = add i64 %i52, 32
  %v70 = getelementptr inbounds float, ptr %slot7, i64 %v69
  store float %v68, ptr %v70, align 4
  %v71 = getelementptr inbounds float, ptr %v58, i64 3
  %v72 = load float, ptr %v71, align 4
  %v73 = add i64 %i52, 48
  %v74 = getelementptr inbounds float, ptr %slot7, i64 %v73
  store float %v72, ptr %v74, align 4
  %v75 = getelementptr inbounds float, ptr %v58, i64 4
  %v76 = load float, ptr %v75, align 4
  %v77 = add i64 %i52, 64
  %v78 = getelementptr inbounds float, ptr %slot7, i64 %v77
  store float %v76, ptr %v78, align 4
  %v79 = getelementptr inbounds float, ptr %v58, i64 5
  %v80 = load float, ptr %v79, align 4
  %v81 = add i64 %i52, 80
  %v82 = getelementptr inbounds float, ptr %slot7, i64 %v81
  store float %v80, ptr %v82, align 4
  %v83 = getelementptr inbounds float, ptr %v58, i64 6
  %v84 = load float, ptr %v83, align 4
  %v85 = add i64 %i52, 96
  %v86 = getelementptr inbounds float, ptr %slot7, i64 %v85
  store float %v84, ptr %v86, align 4
  %v87 = getelementptr inbounds float, ptr %v58, i64 7
  %v88 = load float, ptr %v87, align 4
  %v89 = add i64 %i52, 112
  %v90 = getelementptr inbounds float, ptr %slot7, i64 %v89
  store float %v88, ptr %v90, align 4
  %v91 = getelementptr inbounds float, ptr %v58, i64 8
  %v92 = mul i64 %i52, 8
  %v93 = getelementptr inbounds float, ptr %slot8, i64 %v92
  %v94 = getelementptr inbounds float, ptr %v91, i64 0
  %v95 = load <8 x float>, ptr %v94, align 4
  %v96 = getelementptr inbounds float, ptr %v93, i64 0
  store <8 x float> %v95, ptr %v96, align 4
  br label %latch54
latch54:
  %inext53 = add i64 %i52, 1
  br label %head48
done50:
  %v97 = add i64 %v18, %i42
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
  %v108 = call i64 @llvm.smax.i64(i64 %v104, i64 %i25)
  %v109 = call i64 @llvm.smin.i64(i64 %v107, i64 %v30)
  %v110 = icmp slt i64 %v47, 16
  %v111 = sub i64 %v109, %v108
  %v112 = call i64 @llvm.smax.i64(i64 %v111, i64 0)
  %v113 = sdiv i64 %v112, 4
  %v114 = mul i64 %v113, 4
  %v115 = add i64 %v108, %v114
  br label %pre119
pre119:
  br label %head116
head116:
  %i120 = phi i64 [ %v108, %pre119 ], [ %inext121, %latch122 ]
  %v123 = icmp slt i64 %i120, %v115
  br i1 %v123, label %body117, label %done118
body117:
  %v124 = add i64 %v16, %i120
  %v125 = add i64 %v124, 4
  %v126 = sub i64 %v125, 1
  %v127 = icmp sgt i64 %v99, %v124
  %v128 = or i1 %v110, %v127
  %v129 = sub i64 %v124, %v97
  %v130 = call i64 @llvm.smax.i64(i64 %v129, i64 -1073741824)
  %v131 = call i64 @llvm.smin.i64(i64 %v130, i64 1073741824)
  %v132 = mul i64 %i120, 8
  %v133 = getelementptr inbounds float, ptr %v2, i64 %v132
  %v134 = mul i64 %i120, 10
  %v135 = getelementptr inbounds float, ptr %v6, i64 %v134
  call void @tile4(ptr %v133, ptr %v135, ptr %slot7, ptr %slot8, i64 %v47, i64 %v131, i1 %v128, float %v20)
  br label %latch122
latch122:
  %inext121 = add i64 %i120, 4
  br label %head116
done118:
  br label %pre139
pre139:
  br label %head136
head136:
  %i140 = phi i64 [ %v115, %pre139 ], [ %inext141, %latch142 ]
  %v143 = icmp slt i64 %i140, %v109
  br i1 %v143, label %body137, label %done138
body137:
  %v144 = add i64 %v16, %i140
  %v145 = add i64 %v144, 2
  %v146 = sub i64 %v145, 1
  %v147 = icmp sgt i64 %v99, %v144
  %v148 = or i1 %v110, %v147
  %v149 = sub i64 %v144, %v97
  %v150 = call i64 @llvm.smax.i64(i64 %v149, i64 -1073741824)
  %v151 = call i64 @llvm.smin.i64(i64 %v150, i64 1073741824)
  %v152 = mul i64 %i140, 8
  %v153 = getelementptr inbounds float, ptr %v2, i64 %v152
  %v154 = mul i64 %i140, 10
  %v155 = getelementptr inbounds float, ptr %v6, i64 %v154
  call void @tile2(ptr %v153, ptr %v155, ptr %slot7, ptr %slot8, i64 %v47, i64 %v151, i1 %v148, float %v20)
  br label %latch142
latch142:
  %inext141 = add i64 %i140, 2
  br label %head136
done138:
  br label %latch44
latch44:
  %inext43 = add i64 %i42, 16
  br label %head38
done40:
  br label %latch27
latch27:
  %inext26 = add i64 %i25, 256
  br label %head21
done23:
  ret void
}
