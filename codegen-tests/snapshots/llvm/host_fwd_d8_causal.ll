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

define internal void @tile4(ptr noalias %q, ptr noalias %state, ptr noalias %kt, ptr noalias %v, i64 %stride, i64 %cols, i64 %diff, i1 %masked, float %scale) "target-cpu"="x86-64-v3" "target-features"="+avx2,+fma" nounwind {
entry:
  %slot1 = alloca [64 x float], align 32
  %slot887 = alloca [64 x float], align 32
  call void asm sideeffect "", "r,~{memory}"(ptr %q)
  %v2 = getelementptr inbounds float, ptr %kt, i64 0
  %v3 = load <8 x float>, ptr %v2, align 4
  %v4 = getelementptr inbounds float, ptr %kt, i64 8
  %v5 = load <8 x float>, ptr %v4, align 4
  %v6 = getelementptr inbounds float, ptr %q, i64 0
  %v7 = load float, ptr %v6, align 4
  %v8 = insertelement <8 x float> poison, float %v7, i32 0
  %v9 = shufflevector <8 x float> %v8, <8 x float> poison, <8 x i32> zeroinitializer
  %v10 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v9, <8 x float> %v3, <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>)
  %v11 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v9, <8 x float> %v5, <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>)
  %v12 = getelementptr inbounds float, ptr %q, i64 8
  %v13 = load float, ptr %v12, align 4
  %v14 = insertelement <8 x float> poison, float %v13, i32 0
  %v15 = shufflevector <8 x float> %v14, <8 x float> poison, <8 x i32> zeroinitializer
  %v16 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v15, <8 x float> %v3, <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>)
  %v17 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v15, <8 x float> %v5, <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>)
  %v18 = getelementptr inbounds float, ptr %q, i64 16
  %v19 = load float, ptr %v18, align 4
  %v20 = insertelement <8 x float> poison, float %v19, i32 0
  %v21 = shufflevector <8 x float> %v20, <8 x float> poison, <8 x i32> zeroinitializer
  %v22 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v21, <8 x float> %v3, <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>)
  %v23 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v21, <8 x float> %v5, <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>)
  %v24 = getelementptr inbounds float, ptr %q, i64 24
  %v25 = load float, ptr %v24, align 4
  %v26 = insertelement <8 x float> poison, float %v25, i32 0
  %v27 = shufflevector <8 x float> %v26, <8 x float> poison, <8 x i32> zeroinitializer
  %v28 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v27, <8 x float> %v3, <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>)
  %v29 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v27, <8 x float> %v5, <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>)
  %v30 = getelementptr inbounds float, ptr %kt, i64 16
  %v31 = load <8 x float>, ptr %v30, align 4
  %v32 = getelementptr inbounds float, ptr %kt, i64 24
  %v33 = load <8 x float>, ptr %v32, align 4
  %v34 = getelementptr inbounds float, ptr %q, i64 1
  %v35 = load float, ptr %v34, align 4
  %v36 = insertelement <8 x float> poison, float %v35, i32 0
  %v37 = shufflevector <8 x float> %v36, <8 x float> poison, <8 x i32> zeroinitializer
  %v38 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v37, <8 x float> %v31, <8 x float> %v10)
  %v39 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v37, <8 x float> %v33, <8 x float> %v11)
  %v40 = getelementptr inbounds float, ptr %q, i64 9
  %v41 = load float, ptr %v40, align 4
  %v42 = insertelement <8 x float> poison, float %v41, i32 0
  %v43 = shufflevector <8 x float> %v42, <8 x float> poison, <8 x i32> zeroinitializer
  %v44 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v43, <8 x float> %v31, <8 x float> %v16)
  %v45 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v43, <8 x float> %v33, <8 x float> %v17)
  %v46 = getelementptr inbounds float, ptr %q, i64 17
  %v47 = load float, ptr %v46, align 4
  %v48 = insertelement <8 x float> poison, float %v47, i32 0
  %v49 = shufflevector <8 x float> %v48, <8 x float> poison, <8 x i32> zeroinitializer
  %v50 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v49, <8 x float> %v31, <8 x float> %v22)
  %v51 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v49, <8 x float> %v33, <8 x float> %v23)
  %v52 = getelementptr inbounds float, ptr %q, i64 25
  %v53 = load float, ptr %v52, align 4
  %v54 = insertelement <8 x float> poison, float %v53, i32 0
  %v55 = shufflevector <8 x float> %v54, <8 x float> poison, <8 x i32> zeroinitializer
  %v56 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v55, <8 x float> %v31, <8 x float> %v28)
  %v57 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v55, <8 x float> %v33, <8 x float> %v29)
  %v58 = getelementptr inbounds float, ptr %kt, i64 32
  %v59 = load <8 x float>, ptr %v58, align 4
  %v60 = getelementptr inbounds float, ptr %kt, i64 40
  %v61 = load <8 x float>, ptr %v60, align 4
  %v62 = getelementptr inbounds float, ptr %q, i64 2
  %v63 = load float, ptr %v62, align 4
  %v64 = insertelement <8 x float> poison, float %v63, i32 0
  %v65 = shufflevector <8 x float> %v64, <8 x float> poison, <8 x i32> zeroinitializer
  %v66 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v65, <8 x float> %v59, <8 x float> %v38)
  %v67 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v65, <8 x float> %v61, <8 x float> %v39)
  %v68 = getelementptr inbounds float, ptr %q, i64 10
  %v69 = load float, ptr %v68, align 4
  %v70 = insertelement <8 x float> poison, float %v69, i32 0
  %v71 = shufflevector <8 x float> %v70, <8 x float> poison, <8 x i32> zeroinitializer
  %v72 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v71, <8 x float> %v59, <8 x float> %v44)
  %v73 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v71, <8 x float> %v61, <8 x float> %v45)
  %v74 = getelementptr inbounds float, ptr %q, i64 18
  %v75 = load float, ptr %v74, align 4
  %v76 = insertelement <8 x float> poison, float %v75, i32 0
  %v77 = shufflevector <8 x float> %v76, <8 x float> poison, <8 x i32> zeroinitializer
  %v78 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v77, <8 x float> %v59, <8 x float> %v50)
  %v79 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v77, <8 x float> %v61, <8 x float> %v51)
  %v80 = getelementptr inbounds float, ptr %q, i64 26
  %v81 = load float, ptr %v80, align 4
  %v82 = insertelement <8 x float> poison, float %v81, i32 0
  %v83 = shufflevector <8 x float> %v82, <8 x float> poison, <8 x i32> zeroinitializer
  %v84 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v83, <8 x float> %v59, <8 x float> %v56)
  %v85 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v83, <8 x float> %v61, <8 x float> %v57)
  %v86 = getelementptr inbounds float, ptr %kt, i64 48
  %v87 = load <8 x float>, ptr %v86, align 4
  %v88 = getelementptr inbounds float, ptr %kt, i64 56
  %v89 = load <8 x float>, ptr %v88, align 4
  %v90 = getelementptr inbounds float, ptr %q, i64 3
  %v91 = load float, ptr %v90, align 4
  %v92 = insertelement <8 x float> poison, float %v91, i32 0
  %v93 = shufflevector <8 x float> %v92, <8 x float> poison, <8 x i32> zeroinitializer
  %v94 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v93, <8 x float> %v87, <8 x float> %v66)
  %v95 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v93, <8 x float> %v89, <8 x float> %v67)
  %v96 = getelementptr inbounds float, ptr %q, i64 11
  %v97 = load float, ptr %v96, align 4
  %v98 = insertelement <8 x float> poison, float %v97, i32 0
  %v99 = shufflevector <8 x float> %v98, <8 x float> poison, <8 x i32> zeroinitializer
  %v100 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v99, <8 x float> %v87, <8 x float> %v72)
  %v101 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v99, <8 x float> %v89, <8 x float> %v73)
  %v102 = getelementptr inbounds float, ptr %q, i64 19
  %v103 = load float, ptr %v102, align 4
  %v104 = insertelement <8 x float> poison, float %v103, i32 0
  %v105 = shufflevector <8 x float> %v104, <8 x float> poison, <8 x i32> zeroinitializer
  %v106 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v105, <8 x float> %v87, <8 x float> %v78)
  %v107 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v105, <8 x float> %v89, <8 x float> %v79)
  %v108 = getelementptr inbounds float, ptr %q, i64 27
  %v109 = load float, ptr %v108, align 4
  %v110 = insertelement <8 x float> poison, float %v109, i32 0
  %v111 = shufflevector <8 x float> %v110, <8 x float> poison, <8 x i32> zeroinitializer
  %v112 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v111, <8 x float> %v87, <8 x float> %v84)
  %v113 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v111, <8 x float> %v89, <8 x float> %v85)
  %v114 = getelementptr inbounds float, ptr %kt, i64 64
  %v115 = load <8 x float>, ptr %v114, align 4
  %v116 = getelementptr inbounds float, ptr %kt, i64 72
  %v117 = load <8 x float>, ptr %v116, align 4
  %v118 = getelementptr inbounds float, ptr %q, i64 4
  %v119 = load float, ptr %v118, align 4
  %v120 = insertelement <8 x float> poison, float %v119, i32 0
  %v121 = shufflevector <8 x float> %v120, <8 x float> poison, <8 x i32> zeroinitializer
  %v122 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v115, <8 x float> %v94)
  %v123 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v117, <8 x float> %v95)
  %v124 = getelementptr inbounds float, ptr %q, i64 12
  %v125 = load float, ptr %v124, align 4
  %v126 = insertelement <8 x float> poison, float %v125, i32 0
  %v127 = shufflevector <8 x float> %v126, <8 x float> poison, <8 x i32> zeroinitializer
  %v128 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v127, <8 x float> %v115, <8 x float> %v100)
  %v129 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v127, <8 x float> %v117, <8 x float> %v101)
  %v130 = getelementptr inbounds float, ptr %q, i64 20
  %v131 = load float, ptr %v130, align 4
  %v132 = insertelement <8 x float> poison, float %v131, i32 0
  %v133 = shufflevector <8 x float> %v132, <8 x float> poison, <8 x i32> zeroinitializer
  %v134 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v133, <8 x float> %v115, <8 x float> %v106)
  %v135 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v133, <8 x float> %v117, <8 x float> %v107)
  %v136 = getelementptr inbounds float, ptr %q, i64 28
  %v137 = load float, ptr %v136, align 4
  %v138 = insertelement <8 x float> poison, float %v137, i32 0
  %v139 = shufflevector <8 x float> %v138, <8 x float> poison, <8 x i32> zeroinitializer
  %v140 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v139, <8 x float> %v115, <8 x float> %v112)
  %v141 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v139, <8 x float> %v117, <8 x float> %v113)
  %v142 = getelementptr inbounds float, ptr %kt, i64 80
  %v143 = load <8 x float>, ptr %v142, align 4
  %v144 = getelementptr inbounds float, ptr %kt, i64 88
  %v145 = load <8 x float>, ptr %v144, align 4
  %v146 = getelementptr inbounds float, ptr %q, i64 5
  %v147 = load float, ptr %v146, align 4
  %v148 = insertelement <8 x float> poison, float %v147, i32 0
  %v149 = shufflevector <8 x float> %v148, <8 x float> poison, <8 x i32> zeroinitializer
  %v150 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v149, <8 x float> %v143, <8 x float> %v122)
  %v151 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v149, <8 x float> %v145, <8 x float> %v123)
  %v152 = getelementptr inbounds float, ptr %q, i64 13
  %v153 = load float, ptr %v152, align 4
  %v154 = insertelement <8 x float> poison, float %v153, i32 0
  %v155 = shufflevector <8 x float> %v154, <8 x float> poison, <8 x i32> zeroinitializer
  %v156 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v155, <8 x float> %v143, <8 x float> %v128)
  %v157 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v155, <8 x float> %v145, <8 x float> %v129)
  %v158 = getelementptr inbounds float, ptr %q, i64 21
  %v159 = load float, ptr %v158, align 4
  %v160 = insertelement <8 x float> poison, float %v159, i32 0
  %v161 = shufflevector <8 x float> %v160, <8 x float> poison, <8 x i32> zeroinitializer
  %v162 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v161, <8 x float> %v143, <8 x float> %v134)
  %v163 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v161, <8 x float> %v145, <8 x float> %v135)
  %v164 = getelementptr inbounds float, ptr %q, i64 29
  %v165 = load float, ptr %v164, align 4
  %v166 = insertelement <8 x float> poison, float %v165, i32 0
  %v167 = shufflevector <8 x float> %v166, <8 x float> poison, <8 x i32> zeroinitializer
  %v168 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v167, <8 x float> %v143, <8 x float> %v140)
  %v169 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v167, <8 x float> %v145, <8 x float> %v141)
  %v170 = getelementptr inbounds float, ptr %kt, i64 96
  %v171 = load <8 x float>, ptr %v170, align 4
  %v172 = getelementptr inbounds float, ptr %kt, i64 104
  %v173 = load <8 x float>, ptr %v172, align 4
  %v174 = getelementptr inbounds float, ptr %q, i64 6
  %v175 = load float, ptr %v174, align 4
  %v176 = insertelement <8 x float> poison, float %v175, i32 0
  %v177 = shufflevector <8 x float> %v176, <8 x float> poison, <8 x i32> zeroinitializer
  %v178 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v177, <8 x float> %v171, <8 x float> %v150)
  %v179 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v177, <8 x float> %v173, <8 x float> %v151)
  %v180 = getelementptr inbounds float, ptr %q, i64 14
  %v181 = load float, ptr %v180, align 4
  %v182 = insertelement <8 x float> poison, float %v181, i32 0
  %v183 = shufflevector <8 x float> %v182, <8 x float> poison, <8 x i32> zeroinitializer
  %v184 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v183, <8 x float> %v171, <8 x float> %v156)
  %v185 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v183, <8 x float> %v173, <8 x float> %v157)
  %v186 = getelementptr inbounds float, ptr %q, i64 22
  %v187 = load float, ptr %v186, align 4
  %v188 = insertelement <8 x float> poison, float %v187, i32 0
  %v189 = shufflevector <8 x float> %v188, <8 x float> poison, <8 x i32> zeroinitializer
  %v190 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v189, <8 x float> %v171, <8 x float> %v162)
  %v191 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v189, <8 x float> %v173, <8 x float> %v163)
  %v192 = getelementptr inbounds float, ptr %q, i64 30
  %v193 = load float, ptr %v192, align 4
  %v194 = insertelement <8 x float> poison, float %v193, i32 0
  %v195 = shufflevector <8 x float> %v194, <8 x float> poison, <8 x i32> zeroinitializer
  %v196 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v195, <8 x float> %v171, <8 x float> %v168)
  %v197 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v195, <8 x float> %v173, <8 x float> %v169)
  %v198 = getelementptr inbounds float, ptr %kt, i64 112
  %v199 = load <8 x float>, ptr %v198, align 4
  %v200 = getelementptr inbounds float, ptr %kt, i64 120
  %v201 = load <8 x float>, ptr %v200, align 4
  %v202 = getelementptr inbounds float, ptr %q, i64 7
  %v203 = load float, ptr %v202, align 4
  %v204 = insertelement <8 x float> poison, float %v203, i32 0
  %v205 = shufflevector <8 x float> %v204, <8 x float> poison, <8 x i32> zeroinitializer
  %v206 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v205, <8 x float> %v199, <8 x float> %v178)
  %v207 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v205, <8 x float> %v201, <8 x float> %v179)
  %v208 = getelementptr inbounds float, ptr %q, i64 15
  %v209 = load float, ptr %v208, align 4
  %v210 = insertelement <8 x float> poison, float %v209, i32 0
  %v211 = shufflevector <8 x float> %v210, <8 x float> poison, <8 x i32> zeroinitializer
  %v212 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v211, <8 x float> %v199, <8 x float> %v184)
  %v213 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v211, <8 x float> %v201, <8 x float> %v185)
  %v214 = getelementptr inbounds float, ptr %q, i64 23
  %v215 = load float, ptr %v214, align 4
  %v216 = insertelement <8 x float> poison, float %v215, i32 0
  %v217 = shufflevector <8 x float> %v216, <8 x float> poison, <8 x i32> zeroinitializer
  %v218 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v217, <8 x float> %v199, <8 x float> %v190)
  %v219 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v217, <8 x float> %v201, <8 x float> %v191)
  %v220 = getelementptr inbounds float, ptr %q, i64 31
  %v221 = load float, ptr %v220, align 4
  %v222 = insertelement <8 x float> poison, float %v221, i32 0
  %v223 = shufflevector <8 x float> %v222, <8 x float> poison, <8 x i32> zeroinitializer
  %v224 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v223, <8 x float> %v199, <8 x float> %v196)
  %v225 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v223, <8 x float> %v201, <8 x float> %v197)
  %v226 = insertelement <8 x float> poison, float %scale, i32 0
  %v227 = shufflevector <8 x float> %v226, <8 x float> poison, <8 x i32> zeroinitializer
  %v228 = fmul <8 x float> %v206, %v227
  %v229 = fmul <8 x float> %v207, %v227
  %v230 = fmul <8 x float> %v212, %v227
  %v231 = fmul <8 x float> %v213, %v227
  %v232 = fmul <8 x float> %v218, %v227
  %v233 = fmul <8 x float> %v219, %v227
  %v234 = fmul <8 x float> %v224, %v227
  %v235 = fmul <8 x float> %v225, %v227
  br label %nomask238
nomask238:
  br i1 %masked, label %mask236, label %masked237
mask236:
  %v239 = trunc i64 %cols to i32
  %v240 = insertelement <8 x i32> poison, i32 %v239, i32 0
  %v241 = shufflevector <8 x i32> %v240, <8 x i32> poison, <8 x i32> zeroinitializer
  %v242 = trunc i64 %diff to i32
  %v243 = add i32 %v242, 0
  %v244 = insertelement <8 x i32> poison, i32 %v243, i32 0
  %v245 = shufflevector <8 x i32> %v244, <8 x i32> poison, <8 x i32> zeroinitializer
  %v246 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v241
  %v247 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v245
  %v248 = and <8 x i1> %v246, %v247
  %v249 = select <8 x i1> %v248, <8 x float> %v228, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v250 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v241
  %v251 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v245
  %v252 = and <8 x i1> %v250, %v251
  %v253 = select <8 x i1> %v252, <8 x float> %v229, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v254 = add i32 %v242, 1
  %v255 = insertelement <8 x i32> poison, i32 %v254, i32 0
  %v256 = shufflevector <8 x i32> %v255, <8 x i32> poison, <8 x i32> zeroinitializer
  %v257 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v241
  %v258 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v256
  %v259 = and <8 x i1> %v257, %v258
  %v260 = select <8 x i1> %v259, <8 x float> %v230, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v261 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v241
  %v262 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v256
  %v263 = and <8 x i1> %v261, %v262
  %v264 = select <8 x i1> %v263, <8 x float> %v231, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v265 = add i32 %v242, 2
  %v266 = insertelement <8 x i32> poison, i32 %v265, i32 0
  %v267 = shufflevector <8 x i32> %v266, <8 x i32> poison, <8 x i32> zeroinitializer
  %v268 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v241
  %v269 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v267
  %v270 = and <8 x i1> %v268, %v269
  %v271 = select <8 x i1> %v270, <8 x float> %v232, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v272 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v241
  %v273 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v267
  %v274 = and <8 x i1> %v272, %v273
  %v275 = select <8 x i1> %v274, <8 x float> %v233, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v276 = add i32 %v242, 3
  %v277 = insertelement <8 x i32> poison, i32 %v276, i32 0
  %v278 = shufflevector <8 x i32> %v277, <8 x i32> poison, <8 x i32> zeroinitializer
  %v279 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v241
  %v280 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v278
  %v281 = and <8 x i1> %v279, %v280
  %v282 = select <8 x i1> %v281, <8 x float> %v234, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v283 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v241
  %v284 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v278
  %v285 = and <8 x i1> %v283, %v284
  %v286 = select <8 x i1> %v285, <8 x float> %v235, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  br label %masked237
masked237:
  %v287 = phi <8 x float> [ %v228, %nomask238 ], [ %v249, %mask236 ]
  %v288 = phi <8 x float> [ %v229, %nomask238 ], [ %v253, %mask236 ]
  %v289 = phi <8 x float> [ %v230, %nomask238 ], [ %v260, %mask236 ]
  %v290 = phi <8 x float> [ %v231, %nomask238 ], [ %v264, %mask236 ]
  %v291 = phi <8 x float> [ %v232, %nomask238 ], [ %v271, %mask236 ]
  %v292 = phi <8 x float> [ %v233, %nomask238 ], [ %v275, %mask236 ]
  %v293 = phi <8 x float> [ %v234, %nomask238 ], [ %v282, %mask236 ]
  %v294 = phi <8 x float> [ %v235, %nomask238 ], [ %v286, %mask236 ]
  %v295 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v287, <8 x float> %v288)
  %v296 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v295)
  %v297 = getelementptr inbounds float, ptr %state, i64 0
  %v298 = load float, ptr %v297, align 4
  %v299 = call float @llvm.maxnum.f32(float %v298, float %v296)
  %v300 = fcmp oeq float %v299, 0xFFF0000000000000
  %v301 = select i1 %v300, float 0x0000000000000000, float %v299
  %v302 = insertelement <8 x float> poison, float %v301, i32 0
  %v303 = shufflevector <8 x float> %v302, <8 x float> poison, <8 x i32> zeroinitializer
  %v304 = fsub <8 x float> %v287, %v303
  %v305 = call <8 x float> @exp8(<8 x float> %v304)
  %v306 = getelementptr inbounds float, ptr %slot1, i64 0
  store <8 x float> %v305, ptr %v306, align 4
  %v307 = fadd <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %v305
  %v308 = fsub <8 x float> %v288, %v303
  %v309 = call <8 x float> @exp8(<8 x float> %v308)
  %v310 = getelementptr inbounds float, ptr %slot1, i64 8
  store <8 x float> %v309, ptr %v310, align 4
  %v311 = fadd <8 x float> %v307, %v309
  %v312 = call float @llvm.vector.reduce.fadd.v8f32(float 0x0000000000000000, <8 x float> %v311)
  %v313 = fsub float %v298, %v301
  %v314 = insertelement <8 x float> poison, float %v313, i32 0
  %v315 = shufflevector <8 x float> %v314, <8 x float> poison, <8 x i32> zeroinitializer
  %v316 = call <8 x float> @exp8(<8 x float> %v315)
  %v317 = extractelement <8 x float> %v316, i32 0
  %v318 = getelementptr inbounds float, ptr %state, i64 1
  %v319 = load float, ptr %v318, align 4
  %v320 = call float @llvm.fma.f32(float %v319, float %v317, float %v312)
  store float %v320, ptr %v318, align 4
  store float %v299, ptr %v297, align 4
  %v321 = insertelement <8 x float> poison, float %v317, i32 0
  %v322 = shufflevector <8 x float> %v321, <8 x float> poison, <8 x i32> zeroinitializer
  %v323 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v289, <8 x float> %v290)
  %v324 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v323)
  %v325 = getelementptr inbounds float, ptr %state, i64 10
  %v326 = load float, ptr %v325, align 4
  %v327 = call float @llvm.maxnum.f32(float %v326, float %v324)
  %v328 = fcmp oeq float %v327, 0xFFF0000000000000
  %v329 = select i1 %v328, float 0x0000000000000000, float %v327
  %v330 = insertelement <8 x float> poison, float %v329, i32 0
  %v331 = shufflevector <8 x float> %v330, <8 x float> poison, <8 x i32> zeroinitializer
  %v332 = fsub <8 x float> %v289, %v331
  %v333 = call <8 x float> @exp8(<8 x float> %v332)
  %v334 = getelementptr inbounds float, ptr %slot1, i64 16
  store <8 x float> %v333, ptr %v334, align 4
  %v335 = fadd <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %v333
  %v336 = fsub <8 x float> %v290, %v331
  %v337 = call <8 x float> @exp8(<8 x float> %v336)
  %v338 = getelementptr inbounds float, ptr %slot1, i64 24
  store <8 x float> %v337, ptr %v338, align 4
  %v339 = fadd <8 x float> %v335, %v337
  %v340 = call float @llvm.vector.reduce.fadd.v8f32(float 0x0000000000000000, <8 x float> %v339)
  %v341 = fsub float %v326, %v329
  %v342 = insertelement <8 x float> poison, float %v341, i32 0
  %v343 = shufflevector <8 x float> %v342, <8 x float> poison, <8 x i32> zeroinitializer
  %v344 = call <8 x float> @exp8(<8 x float> %v343)
  %v345 = extractelement <8 x float> %v344, i32 0
  %v346 = getelementptr inbounds float, ptr %state, i64 11
  %v347 = load float, ptr %v346, align 4
  %v348 = call float @llvm.fma.f32(float %v347, float %v345, float %v340)
  store float %v348, ptr %v346, align 4
  store float %v327, ptr %v325, align 4
  %v349 = insertelement <8 x float> poison, float %v345, i32 0
  %v350 = shufflevector <8 x float> %v349, <8 x float> poison, <8 x i32> zeroinitializer
  %v351 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v291, <8 x float> %v292)
  %v352 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v351)
  %v353 = getelementptr inbounds float, ptr %state, i64 20
  %v354 = load float, ptr %v353, align 4
  %v355 = call float @llvm.maxnum.f32(float %v354, float %v352)
  %v356 = fcmp oeq float %v355, 0xFFF0000000000000
  %v357 = select i1 %v356, float 0x0000000000000000, float %v355
  %v358 = insertelement <8 x float> poison, float %v357, i32 0
  %v359 = shufflevector <8 x float> %v358, <8 x float> poison, <8 x i32> zeroinitializer
  %v360 = fsub <8 x float> %v291, %v359
  %v361 = call <8 x float> @exp8(<8 x float> %v360)
  %v362 = getelementptr inbounds float, ptr %slot1, i64 32
  store <8 x float> %v361, ptr %v362, align 4
  %v363 = fadd <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %v361
  %v364 = fsub <8 x float> %v292, %v359
  %v365 = call <8 x float> @exp8(<8 x float> %v364)
  %v366 = getelementptr inbounds float, ptr %slot1, i64 40
  store <8 x float> %v365, ptr %v366, align 4
  %v367 = fadd <8 x float> %v363, %v365
  %v368 = call float @llvm.vector.reduce.fadd.v8f32(float 0x0000000000000000, <8 x float> %v367)
  %v369 = fsub float %v354, %v357
  %v370 = insertelement <8 x float> poison, float %v369, i32 0
  %v371 = shufflevector <8 x float> %v370, <8 x float> poison, <8 x i32> zeroinitializer
  %v372 = call <8 x float> @exp8(<8 x float> %v371)
  %v373 = extractelement <8 x float> %v372, i32 0
  %v374 = getelementptr inbounds float, ptr %state, i64 21
  %v375 = load float, ptr %v374, align 4
  %v376 = call float @llvm.fma.f32(float %v375, float %v373, float %v368)
  store float %v376, ptr %v374, align 4
  store float %v355, ptr %v353, align 4
  %v377 = insertelement <8 x float> poison, float %v373, i32 0
  %v378 = shufflevector <8 x float> %v377, <8 x float> poison, <8 x i32> zeroinitializer
  %v379 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v293, <8 x float> %v294)
  %v380 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v379)
  %v381 = getelementptr inbounds float, ptr %state, i64 30
  %v382 = load float, ptr %v381, align 4
  %v383 = call float @llvm.maxnum.f32(float %v382, float %v380)
  %v384 = fcmp oeq float %v383, 0xFFF0000000000000
  %v385 = select i1 %v384, float 0x0000000000000000, float %v383
  %v386 = insertelement <8 x float> poison, float %v385, i32 0
  %v387 = shufflevector <8 x float> %v386, <8 x float> poison, <8 x i32> zeroinitializer
  %v388 = fsub <8 x float> %v293, %v387
  %v389 = call <8 x float> @exp8(<8 x float> %v388)
  %v390 = getelementptr inbounds float, ptr %slot1, i64 48
  store <8 x float> %v389, ptr %v390, align 4
  %v391 = fadd <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %v389
  %v392 = fsub <8 x float> %v294, %v387
  %v393 = call <8 x float> @exp8(<8 x float> %v392)
  %v394 = getelementptr inbounds float, ptr %slot1, i64 56
  store <8 x float> %v393, ptr %v394, align 4
  %v395 = fadd <8 x float> %v391, %v393
  %v396 = call float @llvm.vector.reduce.fadd.v8f32(float 0x0000000000000000, <8 x float> %v395)
  %v397 = fsub float %v382, %v385
  %v398 = insertelement <8 x float> poison, float %v397, i32 0
  %v399 = shufflevector <8 x float> %v398, <8 x float> poison, <8 x i32> zeroinitializer
  %v400 = call <8 x float> @exp8(<8 x float> %v399)
  %v401 = extractelement <8 x float> %v400, i32 0
  %v402 = getelementptr inbounds float, ptr %state, i64 31
  %v403 = load float, ptr %v402, align 4
  %v404 = call float @llvm.fma.f32(float %v403, float %v401, float %v396)
  store float %v404, ptr %v402, align 4
  store float %v383, ptr %v381, align 4
  %v405 = insertelement <8 x float> poison, float %v401, i32 0
  %v406 = shufflevector <8 x float> %v405, <8 x float> poison, <8 x i32> zeroinitializer
  %v407 = icmp eq i64 %cols, 16
  br i1 %v407, label %pv_full408, label %pv_part409
pv_full408:
  call void asm sideeffect "", "r,~{memory}"(ptr %slot1)
  %v411 = getelementptr inbounds float, ptr %state, i64 2
  %v412 = load <8 x float>, ptr %v411, align 4
  %v413 = fmul <8 x float> %v412, %v322
  %v414 = getelementptr inbounds float, ptr %state, i64 12
  %v415 = load <8 x float>, ptr %v414, align 4
  %v416 = fmul <8 x float> %v415, %v350
  %v417 = getelementptr inbounds float, ptr %state, i64 22
  %v418 = load <8 x float>, ptr %v417, align 4
  %v419 = fmul <8 x float> %v418, %v378
  %v420 = getelementptr inbounds float, ptr %state, i64 32
  %v421 = load <8 x float>, ptr %v420, align 4
  %v422 = fmul <8 x float> %v421, %v406
  %v423 = mul i64 0, %stride
  %v424 = add i64 %v423, 0
  %v425 = getelementptr inbounds float, ptr %v, i64 %v424
  %v426 = load <8 x float>, ptr %v425, align 4
  %v427 = add i64 0, 0
  %v428 = getelementptr inbounds float, ptr %slot1, i64 %v427
  %v429 = load float, ptr %v428, align 4
  %v430 = insertelement <8 x float> poison, float %v429, i32 0
  %v431 = shufflevector <8 x float> %v430, <8 x float> poison, <8 x i32> zeroinitializer
  %v432 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v431, <8 x float> %v426, <8 x float> %v413)
  %v433 = add i64 0, 16
  %v434 = getelementptr inbounds float, ptr %slot1, i64 %v433
  %v435 = load float, ptr %v434, align 4
  %v436 = insertelement <8 x float> poison, float %v435, i32 0
  %v437 = shufflevector <8 x float> %v436, <8 x float> poison, <8 x i32> zeroinitializer
  %v438 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v437, <8 x float> %v426, <8 x float> %v416)
  %v439 = add i64 0, 32
  %v440 = getelementptr inbounds float, ptr %slot1, i64 %v439
  %v441 = load float, ptr %v440, align 4
  %v442 = insertelement <8 x float> poison, float %v441, i32 0
  %v443 = shufflevector <8 x float> %v442, <8 x float> poison, <8 x i32> zeroinitializer
  %v444 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v443, <8 x float> %v426, <8 x float> %v419)
  %v445 = add i64 0, 48
  %v446 = getelementptr inbounds float, ptr %slot1, i64 %v445
  %v447 = load float, ptr %v446, align 4
  %v448 = insertelement <8 x float> poison, float %v447, i32 0
  %v449 = shufflevector <8 x float> %v448, <8 x float> poison, <8 x i32> zeroinitializer
  %v450 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v449, <8 x float> %v426, <8 x float> %v422)
  %v451 = mul i64 1, %stride
  %v452 = add i64 %v451, 0
  %v453 = getelementptr inbounds float, ptr %v, i64 %v452
  %v454 = load <8 x float>, ptr %v453, align 4
  %v455 = add i64 1, 0
  %v456 = getelementptr inbounds float, ptr %slot1, i64 %v455
  %v457 = load float, ptr %v456, align 4
  %v458 = insertelement <8 x float> poison, float %v457, i32 0
  %v459 = shufflevector <8 x float> %v458, <8 x float> poison, <8 x i32> zeroinitializer
  %v460 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v459, <8 x float> %v454, <8 x float> %v432)
  %v461 = add i64 1, 16
  %v462 = getelementptr inbounds float, ptr %slot1, i64 %v461
  %v463 = load float, ptr %v462, align 4
  %v464 = insertelement <8 x float> poison, float %v463, i32 0
  %v465 = shufflevector <8 x float> %v464, <8 x float> poison, <8 x i32> zeroinitializer
  %v466 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v465, <8 x float> %v454, <8 x float> %v438)
  %v467 = add i64 1, 32
  %v468 = getelementptr inbounds float, ptr %slot1, i64 %v467
  %v469 = load float, ptr %v468, align 4
  %v470 = insertelement <8 x float> poison, float %v469, i32 0
  %v471 = shufflevector <8 x float> %v470, <8 x float> poison, <8 x i32> zeroinitializer
  %v472 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v471, <8 x float> %v454, <8 x float> %v444)
  %v473 = add i64 1, 48
  %v474 = getelementptr inbounds float, ptr %slot1, i64 %v473
  %v475 = load float, ptr %v474, align 4
  %v476 = insertelement <8 x float> poison, float %v475, i32 0
  %v477 = shufflevector <8 x float> %v476, <8 x float> poison, <8 x i32> zeroinitializer
  %v478 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v477, <8 x float> %v454, <8 x float> %v450)
  %v479 = mul i64 2, %stride
  %v480 = add i64 %v479, 0
  %v481 = getelementptr inbounds float, ptr %v, i64 %v480
  %v482 = load <8 x float>, ptr %v481, align 4
  %v483 = add i64 2, 0
  %v484 = getelementptr inbounds float, ptr %slot1, i64 %v483
  %v485 = load float, ptr %v484, align 4
  %v486 = insertelement <8 x float> poison, float %v485, i32 0
  %v487 = shufflevector <8 x float> %v486, <8 x float> poison, <8 x i32> zeroinitializer
  %v488 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v487, <8 x float> %v482, <8 x float> %v460)
  %v489 = add i64 2, 16
  %v490 = getelementptr inbounds float, ptr %slot1, i64 %v489
  %v491 = load float, ptr %v490, align 4
  %v492 = insertelement <8 x float> poison, float %v491, i32 0
  %v493 = shufflevector <8 x float> %v492, <8 x float> poison, <8 x i32> zeroinitializer
  %v494 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v493, <8 x float> %v482, <8 x float> %v466)
  %v495 = add i64 2, 32
  %v496 = getelementptr inbounds float, ptr %slot1, i64 %v495
  %v497 = load float, ptr %v496, align 4
  %v498 = insertelement <8 x float> poison, float %v497, i32 0
  %v499 = shufflevector <8 x float> %v498, <8 x float> poison, <8 x i32> zeroinitializer
  %v500 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v499, <8 x float> %v482, <8 x float> %v472)
  %v501 = add i64 2, 48
  %v502 = getelementptr inbounds float, ptr %slot1, i64 %v501
  %v503 = load float, ptr %v502, align 4
  %v504 = insertelement <8 x float> poison, float %v503, i32 0
  %v505 = shufflevector <8 x float> %v504, <8 x float> poison, <8 x i32> zeroinitializer
  %v506 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v505, <8 x float> %v482, <8 x float> %v478)
  %v507 = mul i64 3, %stride
  %v508 = add i64 %v507, 0
  %v509 = getelementptr inbounds float, ptr %v, i64 %v508
  %v510 = load <8 x float>, ptr %v509, align 4
  %v511 = add i64 3, 0
  %v512 = getelementptr inbounds float, ptr %slot1, i64 %v511
  %v513 = load float, ptr %v512, align 4
  %v514 = insertelement <8 x float> poison, float %v513, i32 0
  %v515 = shufflevector <8 x float> %v514, <8 x float> poison, <8 x i32> zeroinitializer
  %v516 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v515, <8 x float> %v510, <8 x float> %v488)
  %v517 = add i64 3, 16
  %v518 = getelementptr inbounds float, ptr %slot1, i64 %v517
  %v519 = load float, ptr %v518, align 4
  %v520 = insertelement <8 x float> poison, float %v519, i32 0
  %v521 = shufflevector <8 x float> %v520, <8 x float> poison, <8 x i32> zeroinitializer
  %v522 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v521, <8 x float> %v510, <8 x float> %v494)
  %v523 = add i64 3, 32
  %v524 = getelementptr inbounds float, ptr %slot1, i64 %v523
  %v525 = load float, ptr %v524, align 4
  %v526 = insertelement <8 x float> poison, float %v525, i32 0
  %v527 = shufflevector <8 x float> %v526, <8 x float> poison, <8 x i32> zeroinitializer
  %v528 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v527, <8 x float> %v510, <8 x float> %v500)
  %v529 = add i64 3, 48
  %v530 = getelementptr inbounds float, ptr %slot1, i64 %v529
  %v531 = load float, ptr %v530, align 4
  %v532 = insertelement <8 x float> poison, float %v531, i32 0
  %v533 = shufflevector <8 x float> %v532, <8 x float> poison, <8 x i32> zeroinitializer
  %v534 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v533, <8 x float> %v510, <8 x float> %v506)
  %v535 = mul i64 4, %stride
  %v536 = add i64 %v535, 0
  %v537 = getelementptr inbounds float, ptr %v, i64 %v536
  %v538 = load <8 x float>, ptr %v537, align 4
  %v539 = add i64 4, 0
  %v540 = getelementptr inbounds float, ptr %slot1, i64 %v539
  %v541 = load float, ptr %v540, align 4
  %v542 = insertelement <8 x float> poison, float %v541, i32 0
  %v543 = shufflevector <8 x float> %v542, <8 x float> poison, <8 x i32> zeroinitializer
  %v544 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v543, <8 x float> %v538, <8 x float> %v516)
  %v545 = add i64 4, 16
  %v546 = getelementptr inbounds float, ptr %slot1, i64 %v545
  %v547 = load float, ptr %v546, align 4
  %v548 = insertelement <8 x float> poison, float %v547, i32 0
  %v549 = shufflevector <8 x float> %v548, <8 x float> poison, <8 x i32> zeroinitializer
  %v550 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v549, <8 x float> %v538, <8 x float> %v522)
  %v551 = add i64 4, 32
  %v552 = getelementptr inbounds float, ptr %slot1, i64 %v551
  %v553 = load float, ptr %v552, align 4
  %v554 = insertelement <8 x float> poison, float %v553, i32 0
  %v555 = shufflevector <8 x float> %v554, <8 x float> poison, <8 x i32> zeroinitializer
  %v556 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v555, <8 x float> %v538, <8 x float> %v528)
  %v557 = add i64 4, 48
  %v558 = getelementptr inbounds float, ptr %slot1, i64 %v557
  %v559 = load float, ptr %v558, align 4
  %v560 = insertelement <8 x float> poison, float %v559, i32 0
  %v561 = shufflevector <8 x float> %v560, <8 x float> poison, <8 x i32> zeroinitializer
  %v562 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v561, <8 x float> %v538, <8 x float> %v534)
  %v563 = mul i64 5, %stride
  %v564 = add i64 %v563, 0
  %v565 = getelementptr inbounds float, ptr %v, i64 %v564
  %v566 = load <8 x float>, ptr %v565, align 4
  %v567 = add i64 5, 0
  %v568 = getelementptr inbounds float, ptr %slot1, i64 %v567
  %v569 = load float, ptr %v568, align 4
  %v570 = insertelement <8 x float> poison, float %v569, i32 0
  %v571 = shufflevector <8 x float> %v570, <8 x float> poison, <8 x i32> zeroinitializer
  %v572 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v571, <8 x float> %v566, <8 x float> %v544)
  %v573 = add i64 5, 16
  %v574 = getelementptr inbounds float, ptr %slot1, i64 %v573
  %v575 = load float, ptr %v574, align 4
  %v576 = insertelement <8 x float> poison, float %v575, i32 0
  %v577 = shufflevector <8 x float> %v576, <8 x float> poison, <8 x i32> zeroinitializer
  %v578 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v577, <8 x float> %v566, <8 x float> %v550)
  %v579 = add i64 5, 32
  %v580 = getelementptr inbounds float, ptr %slot1, i64 %v579
  %v581 = load float, ptr %v580, align 4
  %v582 = insertelement <8 x float> poison, float %v581, i32 0
  %v583 = shufflevector <8 x float> %v582, <8 x float> poison, <8 x i32> zeroinitializer
  %v584 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v583, <8 x float> %v566, <8 x float> %v556)
  %v585 = add i64 5, 48
  %v586 = getelementptr inbounds float, ptr %slot1, i64 %v585
  %v587 = load float, ptr %v586, align 4
  %v588 = insertelement <8 x float> poison, float %v587, i32 0
  %v589 = shufflevector <8 x float> %v588, <8 x float> poison, <8 x i32> zeroinitializer
  %v590 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v589, <8 x float> %v566, <8 x float> %v562)
  %v591 = mul i64 6, %stride
  %v592 = add i64 %v591, 0
  %v593 = getelementptr inbounds float, ptr %v, i64 %v592
  %v594 = load <8 x float>, ptr %v593, align 4
  %v595 = add i64 6, 0
  %v596 = getelementptr inbounds float, ptr %slot1, i64 %v595
  %v597 = load float, ptr %v596, align 4
  %v598 = insertelement <8 x float> poison, float %v597, i32 0
  %v599 = shufflevector <8 x float> %v598, <8 x float> poison, <8 x i32> zeroinitializer
  %v600 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v599, <8 x float> %v594, <8 x float> %v572)
  %v601 = add i64 6, 16
  %v602 = getelementptr inbounds float, ptr %slot1, i64 %v601
  %v603 = load float, ptr %v602, align 4
  %v604 = insertelement <8 x float> poison, float %v603, i32 0
  %v605 = shufflevector <8 x float> %v604, <8 x float> poison, <8 x i32> zeroinitializer
  %v606 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v605, <8 x float> %v594, <8 x float> %v578)
  %v607 = add i64 6, 32
  %v608 = getelementptr inbounds float, ptr %slot1, i64 %v607
  %v609 = load float, ptr %v608, align 4
  %v610 = insertelement <8 x float> poison, float %v609, i32 0
  %v611 = shufflevector <8 x float> %v610, <8 x float> poison, <8 x i32> zeroinitializer
  %v612 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v611, <8 x float> %v594, <8 x float> %v584)
  %v613 = add i64 6, 48
  %v614 = getelementptr inbounds float, ptr %slot1, i64 %v613
  %v615 = load float, ptr %v614, align 4
  %v616 = insertelement <8 x float> poison, float %v615, i32 0
  %v617 = shufflevector <8 x float> %v616, <8 x float> poison, <8 x i32> zeroinitializer
  %v618 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v617, <8 x float> %v594, <8 x float> %v590)
  %v619 = mul i64 7, %stride
  %v620 = add i64 %v619, 0
  %v621 = getelementptr inbounds float, ptr %v, i64 %v620
  %v622 = load <8 x float>, ptr %v621, align 4
  %v623 = add i64 7, 0
  %v624 = getelementptr inbounds float, ptr %slot1, i64 %v623
  %v625 = load float, ptr %v624, align 4
  %v626 = insertelement <8 x float> poison, float %v625, i32 0
  %v627 = shufflevector <8 x float> %v626, <8 x float> poison, <8 x i32> zeroinitializer
  %v628 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v627, <8 x float> %v622, <8 x float> %v600)
  %v629 = add i64 7, 16
  %v630 = getelementptr inbounds float, ptr %slot1, i64 %v629
  %v631 = load float, ptr %v630, align 4
  %v632 = insertelement <8 x float> poison, float %v631, i32 0
  %v633 = shufflevector <8 x float> %v632, <8 x float> poison, <8 x i32> zeroinitializer
  %v634 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v633, <8 x float> %v622, <8 x float> %v606)
  %v635 = add i64 7, 32
  %v636 = getelementptr inbounds float, ptr %slot1, i64 %v635
  %v637 = load float, ptr %v636, align 4
  %v638 = insertelement <8 x float> poison, float %v637, i32 0
  %v639 = shufflevector <8 x float> %v638, <8 x float> poison, <8 x i32> zeroinitializer
  %v640 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v639, <8 x float> %v622, <8 x float> %v612)
  %v641 = add i64 7, 48
  %v642 = getelementptr inbounds float, ptr %slot1, i64 %v641
  %v643 = load float, ptr %v642, align 4
  %v644 = insertelement <8 x float> poison, float %v643, i32 0
  %v645 = shufflevector <8 x float> %v644, <8 x float> poison, <8 x i32> zeroinitializer
  %v646 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v645, <8 x float> %v622, <8 x float> %v618)
  %v647 = mul i64 8, %stride
  %v648 = add i64 %v647, 0
  %v649 = getelementptr inbounds float, ptr %v, i64 %v648
  %v650 = load <8 x float>, ptr %v649, align 4
  %v651 = add i64 8, 0
  %v652 = getelementptr inbounds float, ptr %slot1, i64 %v651
  %v653 = load float, ptr %v652, align 4
  %v654 = insertelement <8 x float> poison, float %v653, i32 0
  %v655 = shufflevector <8 x float> %v654, <8 x float> poison, <8 x i32> zeroinitializer
  %v656 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v655, <8 x float> %v650, <8 x float> %v628)
  %v657 = add i64 8, 16
  %v658 = getelementptr inbounds float, ptr %slot1, i64 %v657
  %v659 = load float, ptr %v658, align 4
  %v660 = insertelement <8 x float> poison, float %v659, i32 0
  %v661 = shufflevector <8 x float> %v660, <8 x float> poison, <8 x i32> zeroinitializer
  %v662 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v661, <8 x float> %v650, <8 x float> %v634)
  %v663 = add i64 8, 32
  %v664 = getelementptr inbounds float, ptr %slot1, i64 %v663
  %v665 = load float, ptr %v664, align 4
  %v666 = insertelement <8 x float> poison, float %v665, i32 0
  %v667 = shufflevector <8 x float> %v666, <8 x float> poison, <8 x i32> zeroinitializer
  %v668 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v667, <8 x float> %v650, <8 x float> %v640)
  %v669 = add i64 8, 48
  %v670 = getelementptr inbounds float, ptr %slot1, i64 %v669
  %v671 = load float, ptr %v670, align 4
  %v672 = insertelement <8 x float> poison, float %v671, i32 0
  %v673 = shufflevector <8 x float> %v672, <8 x float> poison, <8 x i32> zeroinitializer
  %v674 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v673, <8 x float> %v650, <8 x float> %v646)
  %v675 = mul i64 9, %stride
  %v676 = add i64 %v675, 0
  %v677 = getelementptr inbounds float, ptr %v, i64 %v676
  %v678 = load <8 x float>, ptr %v677, align 4
  %v679 = add i64 9, 0
  %v680 = getelementptr inbounds float, ptr %slot1, i64 %v679
  %v681 = load float, ptr %v680, align 4
  %v682 = insertelement <8 x float> poison, float %v681, i32 0
  %v683 = shufflevector <8 x float> %v682, <8 x float> poison, <8 x i32> zeroinitializer
  %v684 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v683, <8 x float> %v678, <8 x float> %v656)
  %v685 = add i64 9, 16
  %v686 = getelementptr inbounds float, ptr %slot1, i64 %v685
  %v687 = load float, ptr %v686, align 4
  %v688 = insertelement <8 x float> poison, float %v687, i32 0
  %v689 = shufflevector <8 x float> %v688, <8 x float> poison, <8 x i32> zeroinitializer
  %v690 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v689, <8 x float> %v678, <8 x float> %v662)
  %v691 = add i64 9, 32
  %v692 = getelementptr inbounds float, ptr %slot1, i64 %v691
  %v693 = load float, ptr %v692, align 4
  %v694 = insertelement <8 x float> poison, float %v693, i32 0
  %v695 = shufflevector <8 x float> %v694, <8 x float> poison, <8 x i32> zeroinitializer
  %v696 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v695, <8 x float> %v678, <8 x float> %v668)
  %v697 = add i64 9, 48
  %v698 = getelementptr inbounds float, ptr %slot1, i64 %v697
  %v699 = load float, ptr %v698, align 4
  %v700 = insertelement <8 x float> poison, float %v699, i32 0
  %v701 = shufflevector <8 x float> %v700, <8 x float> poison, <8 x i32> zeroinitializer
  %v702 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v701, <8 x float> %v678, <8 x float> %v674)
  %v703 = mul i64 10, %stride
  %v704 = add i64 %v703, 0
  %v705 = getelementptr inbounds float, ptr %v, i64 %v704
  %v706 = load <8 x float>, ptr %v705, align 4
  %v707 = add i64 10, 0
  %v708 = getelementptr inbounds float, ptr %slot1, i64 %v707
  %v709 = load float, ptr %v708, align 4
  %v710 = insertelement <8 x float> poison, float %v709, i32 0
  %v711 = shufflevector <8 x float> %v710, <8 x float> poison, <8 x i32> zeroinitializer
  %v712 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v711, <8 x float> %v706, <8 x float> %v684)
  %v713 = add i64 10, 16
  %v714 = getelementptr inbounds float, ptr %slot1, i64 %v713
  %v715 = load float, ptr %v714, align 4
  %v716 = insertelement <8 x float> poison, float %v715, i32 0
  %v717 = shufflevector <8 x float> %v716, <8 x float> poison, <8 x i32> zeroinitializer
  %v718 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v717, <8 x float> %v706, <8 x float> %v690)
  %v719 = add i64 10, 32
  %v720 = getelementptr inbounds float, ptr %slot1, i64 %v719
  %v721 = load float, ptr %v720, align 4
  %v722 = insertelement <8 x float> poison, float %v721, i32 0
  %v723 = shufflevector <8 x float> %v722, <8 x float> poison, <8 x i32> zeroinitializer
  %v724 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v723, <8 x float> %v706, <8 x float> %v696)
  %v725 = add i64 10, 48
  %v726 = getelementptr inbounds float, ptr %slot1, i64 %v725
  %v727 = load float, ptr %v726, align 4
  %v728 = insertelement <8 x float> poison, float %v727, i32 0
  %v729 = shufflevector <8 x float> %v728, <8 x float> poison, <8 x i32> zeroinitializer
  %v730 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v729, <8 x float> %v706, <8 x float> %v702)
  %v731 = mul i64 11, %stride
  %v732 = add i64 %v731, 0
  %v733 = getelementptr inbounds float, ptr %v, i64 %v732
  %v734 = load <8 x float>, ptr %v733, align 4
  %v735 = add i64 11, 0
  %v736 = getelementptr inbounds float, ptr %slot1, i64 %v735
  %v737 = load float, ptr %v736, align 4
  %v738 = insertelement <8 x float> poison, float %v737, i32 0
  %v739 = shufflevector <8 x float> %v738, <8 x float> poison, <8 x i32> zeroinitializer
  %v740 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v739, <8 x float> %v734, <8 x float> %v712)
  %v741 = add i64 11, 16
  %v742 = getelementptr inbounds float, ptr %slot1, i64 %v741
  %v743 = load float, ptr %v742, align 4
  %v744 = insertelement <8 x float> poison, float %v743, i32 0
  %v745 = shufflevector <8 x float> %v744, <8 x float> poison, <8 x i32> zeroinitializer
  %v746 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v745, <8 x float> %v734, <8 x float> %v718)
  %v747 = add i64 11, 32
  %v748 = getelementptr inbounds float, ptr %slot1, i64 %v747
  %v749 = load float, ptr %v748, align 4
  %v750 = insertelement <8 x float> poison, float %v749, i32 0
  %v751 = shufflevector <8 x float> %v750, <8 x float> poison, <8 x i32> zeroinitializer
  %v752 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v751, <8 x float> %v734, <8 x float> %v724)
  %v753 = add i64 11, 48
  %v754 = getelementptr inbounds float, ptr %slot1, i64 %v753
  %v755 = load float, ptr %v754, align 4
  %v756 = insertelement <8 x float> poison, float %v755, i32 0
  %v757 = shufflevector <8 x float> %v756, <8 x float> poison, <8 x i32> zeroinitializer
  %v758 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v757, <8 x float> %v734, <8 x float> %v730)
  %v759 = mul i64 12, %stride
  %v760 = add i64 %v759, 0
  %v761 = getelementptr inbounds float, ptr %v, i64 %v760
  %v762 = load <8 x float>, ptr %v761, align 4
  %v763 = add i64 12, 0
  %v764 = getelementptr inbounds float, ptr %slot1, i64 %v763
  %v765 = load float, ptr %v764, align 4
  %v766 = insertelement <8 x float> poison, float %v765, i32 0
  %v767 = shufflevector <8 x float> %v766, <8 x float> poison, <8 x i32> zeroinitializer
  %v768 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v767, <8 x float> %v762, <8 x float> %v740)
  %v769 = add i64 12, 16
  %v770 = getelementptr inbounds float, ptr %slot1, i64 %v769
  %v771 = load float, ptr %v770, align 4
  %v772 = insertelement <8 x float> poison, float %v771, i32 0
  %v773 = shufflevector <8 x float> %v772, <8 x float> poison, <8 x i32> zeroinitializer
  %v774 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v773, <8 x float> %v762, <8 x float> %v746)
  %v775 = add i64 12, 32
  %v776 = getelementptr inbounds float, ptr %slot1, i64 %v775
  %v777 = load float, ptr %v776, align 4
  %v778 = insertelement <8 x float> poison, float %v777, i32 0
  %v779 = shufflevector <8 x float> %v778, <8 x float> poison, <8 x i32> zeroinitializer
  %v780 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v779, <8 x float> %v762, <8 x float> %v752)
  %v781 = add i64 12, 48
  %v782 = getelementptr inbounds float, ptr %slot1, i64 %v781
  %v783 = load float, ptr %v782, align 4
  %v784 = insertelement <8 x float> poison, float %v783, i32 0
  %v785 = shufflevector <8 x float> %v784, <8 x float> poison, <8 x i32> zeroinitializer
  %v786 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v785, <8 x float> %v762, <8 x float> %v758)
  %v787 = mul i64 13, %stride
  %v788 = add i64 %v787, 0
  %v789 = getelementptr inbounds float, ptr %v, i64 %v788
  %v790 = load <8 x float>, ptr %v789, align 4
  %v791 = add i64 13, 0
  %v792 = getelementptr inbounds float, ptr %slot1, i64 %v791
  %v793 = load float, ptr %v792, align 4
  %v794 = insertelement <8 x float> poison, float %v793, i32 0
  %v795 = shufflevector <8 x float> %v794, <8 x float> poison, <8 x i32> zeroinitializer
  %v796 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v795, <8 x float> %v790, <8 x float> %v768)
  %v797 = add i64 13, 16
  %v798 = getelementptr inbounds float, ptr %slot1, i64 %v797
  %v799 = load float, ptr %v798, align 4
  %v800 = insertelement <8 x float> poison, float %v799, i32 0
  %v801 = shufflevector <8 x float> %v800, <8 x float> poison, <8 x i32> zeroinitializer
  %v802 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v801, <8 x float> %v790, <8 x float> %v774)
  %v803 = add i64 13, 32
  %v804 = getelementptr inbounds float, ptr %slot1, i64 %v803
  %v805 = load float, ptr %v804, align 4
  %v806 = insertelement <8 x float> poison, float %v805, i32 0
  %v807 = shufflevector <8 x float> %v806, <8 x float> poison, <8 x i32> zeroinitializer
  %v808 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v807, <8 x float> %v790, <8 x float> %v780)
  %v809 = add i64 13, 48
  %v810 = getelementptr inbounds float, ptr %slot1, i64 %v809
  %v811 = load float, ptr %v810, align 4
  %v812 = insertelement <8 x float> poison, float %v811, i32 0
  %v813 = shufflevector <8 x float> %v812, <8 x float> poison, <8 x i32> zeroinitializer
  %v814 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v813, <8 x float> %v790, <8 x float> %v786)
  %v815 = mul i64 14, %stride
  %v816 = add i64 %v815, 0
  %v817 = getelementptr inbounds float, ptr %v, i64 %v816
  %v818 = load <8 x float>, ptr %v817, align 4
  %v819 = add i64 14, 0
  %v820 = getelementptr inbounds float, ptr %slot1, i64 %v819
  %v821 = load float, ptr %v820, align 4
  %v822 = insertelement <8 x float> poison, float %v821, i32 0
  %v823 = shufflevector <8 x float> %v822, <8 x float> poison, <8 x i32> zeroinitializer
  %v824 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v823, <8 x float> %v818, <8 x float> %v796)
  %v825 = add i64 14, 16
  %v826 = getelementptr inbounds float, ptr %slot1, i64 %v825
  %v827 = load float, ptr %v826, align 4
  %v828 = insertelement <8 x float> poison, float %v827, i32 0
  %v829 = shufflevector <8 x float> %v828, <8 x float> poison, <8 x i32> zeroinitializer
  %v830 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v829, <8 x float> %v818, <8 x float> %v802)
  %v831 = add i64 14, 32
  %v832 = getelementptr inbounds float, ptr %slot1, i64 %v831
  %v833 = load float, ptr %v832, align 4
  %v834 = insertelement <8 x float> poison, float %v833, i32 0
  %v835 = shufflevector <8 x float> %v834, <8 x float> poison, <8 x i32> zeroinitializer
  %v836 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v835, <8 x float> %v818, <8 x float> %v808)
  %v837 = add i64 14, 48
  %v838 = getelementptr inbounds float, ptr %slot1, i64 %v837
  %v839 = load float, ptr %v838, align 4
  %v840 = insertelement <8 x float> poison, float %v839, i32 0
  %v841 = shufflevector <8 x float> %v840, <8 x float> poison, <8 x i32> zeroinitializer
  %v842 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v841, <8 x float> %v818, <8 x float> %v814)
  %v843 = mul i64 15, %stride
  %v844 = add i64 %v843, 0
  %v845 = getelementptr inbounds float, ptr %v, i64 %v844
  %v846 = load <8 x float>, ptr %v845, align 4
  %v847 = add i64 15, 0
  %v848 = getelementptr inbounds float, ptr %slot1, i64 %v847
  %v849 = load float, ptr %v848, align 4
  %v850 = insertelement <8 x float> poison, float %v849, i32 0
  %v851 = shufflevector <8 x float> %v850, <8 x float> poison, <8 x i32> zeroinitializer
  %v852 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v851, <8 x float> %v846, <8 x float> %v824)
  %v853 = add i64 15, 16
  %v854 = getelementptr inbounds float, ptr %slot1, i64 %v853
  %v855 = load float, ptr %v854, align 4
  %v856 = insertelement <8 x float> poison, float %v855, i32 0
  %v857 = shufflevector <8 x float> %v856, <8 x float> poison, <8 x i32> zeroinitializer
  %v858 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v857, <8 x float> %v846, <8 x float> %v830)
  %v859 = add i64 15, 32
  %v860 = getelementptr inbounds float, ptr %slot1, i64 %v859
  %v861 = load float, ptr %v860, align 4
  %v862 = insertelement <8 x float> poison, float %v861, i32 0
  %v863 = shufflevector <8 x float> %v862, <8 x float> poison, <8 x i32> zeroinitializer
  %v864 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v863, <8 x float> %v846, <8 x float> %v836)
  %v865 = add i64 15, 48
  %v866 = getelementptr inbounds float, ptr %slot1, i64 %v865
  %v867 = load float, ptr %v866, align 4
  %v868 = insertelement <8 x float> poison, float %v867, i32 0
  %v869 = shufflevector <8 x float> %v868, <8 x float> poison, <8 x i32> zeroinitializer
  %v870 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v869, <8 x float> %v846, <8 x float> %v842)
  %v871 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %v852, ptr %v871, align 4
  %v872 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %v858, ptr %v872, align 4
  %v873 = getelementptr inbounds float, ptr %state, i64 22
  store <8 x float> %v864, ptr %v873, align 4
  %v874 = getelementptr inbounds float, ptr %state, i64 32
  store <8 x float> %v870, ptr %v874, align 4
  br label %pv_done410
pv_part409:
  call void asm sideeffect "", "r,~{memory}"(ptr %slot1)
  %v875 = getelementptr inbounds float, ptr %state, i64 2
  %v876 = load <8 x float>, ptr %v875, align 4
  %v877 = fmul <8 x float> %v876, %v322
  %v878 = getelementptr inbounds float, ptr %state, i64 12
  %v879 = load <8 x float>, ptr %v878, align 4
  %v880 = fmul <8 x float> %v879, %v350
  %v881 = getelementptr inbounds float, ptr %state, i64 22
  %v882 = load <8 x float>, ptr %v881, align 4
  %v883 = fmul <8 x float> %v882, %v378
  %v884 = getelementptr inbounds float, ptr %state, i64 32
  %v885 = load <8 x float>, ptr %v884, align 4
  %v886 = fmul <8 x float> %v885, %v406
  %v888 = getelementptr inbounds float, ptr %slot887, i64 0
  store <8 x float> %v877, ptr %v888, align 4
  %v889 = getelementptr inbounds float, ptr %slot887, i64 16
  store <8 x float> %v880, ptr %v889, align 4
  %v890 = getelementptr inbounds float, ptr %slot887, i64 32
  store <8 x float> %v883, ptr %v890, align 4
  %v891 = getelementptr inbounds float, ptr %slot887, i64 48
  store <8 x float> %v886, ptr %v891, align 4
  br label %pre895
pre895:
  br label %head892
head892:
  %i896 = phi i64 [ 0, %pre895 ], [ %inext897, %latch898 ]
  %v899 = icmp slt i64 %i896, %cols
  br i1 %v899, label %body893, label %done894
body893:
  %v900 = getelementptr inbounds float, ptr %slot887, i64 0
  %v901 = load <8 x float>, ptr %v900, align 4
  %v902 = getelementptr inbounds float, ptr %slot887, i64 16
  %v903 = load <8 x float>, ptr %v902, align 4
  %v904 = getelementptr inbounds float, ptr %slot887, i64 32
  %v905 = load <8 x float>, ptr %v904, align 4
  %v906 = getelementptr inbounds float, ptr %slot887, i64 48
  %v907 = load <8 x float>, ptr %v906, align 4
  %v908 = mul i64 %i896, %stride
  %v909 = add i64 %v908, 0
  %v910 = getelementptr inbounds float, ptr %v, i64 %v909
  %v911 = load <8 x float>, ptr %v910, align 4
  %v912 = add i64 %i896, 0
  %v913 = getelementptr inbounds float, ptr %slot1, i64 %v912
  %v914 = load float, ptr %v913, align 4
  %v915 = insertelement <8 x float> poison, float %v914, i32 0
  %v916 = shufflevector <8 x float> %v915, <8 x float> poison, <8 x i32> zeroinitializer
  %v917 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v916, <8 x float> %v911, <8 x float> %v901)
  %v918 = add i64 %i896, 16
  %v919 = getelementptr inbounds float, ptr %slot1, i64 %v918
  %v920 = load float, ptr %v919, align 4
  %v921 = insertelement <8 x float> poison, float %v920, i32 0
  %v922 = shufflevector <8 x float> %v921, <8 x float> poison, <8 x i32> zeroinitializer
  %v923 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v922, <8 x float> %v911, <8 x float> %v903)
  %v924 = add i64 %i896, 32
  %v925 = getelementptr inbounds float, ptr %slot1, i64 %v924
  %v926 = load float, ptr %v925, align 4
  %v927 = insertelement <8 x float> poison, float %v926, i32 0
  %v928 = shufflevector <8 x float> %v927, <8 x float> poison, <8 x i32> zeroinitializer
  %v929 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v928, <8 x float> %v911, <8 x float> %v905)
  %v930 = add i64 %i896, 48
  %v931 = getelementptr inbounds float, ptr %slot1, i64 %v930
  %v932 = load float, ptr %v931, align 4
  %v933 = insertelement <8 x float> poison, float %v932, i32 0
  %v934 = shufflevector <8 x float> %v933, <8 x float> poison, <8 x i32> zeroinitializer
  %v935 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v934, <8 x float> %v911, <8 x float> %v907)
  %v936 = getelementptr inbounds float, ptr %slot887, i64 0
  store <8 x float> %v917, ptr %v936, align 4
  %v937 = getelementptr inbounds float, ptr %slot887, i64 16
  store <8 x float> %v923, ptr %v937, align 4
  %v938 = getelementptr inbounds float, ptr %slot887, i64 32
  store <8 x float> %v929, ptr %v938, align 4
  %v939 = getelementptr inbounds float, ptr %slot887, i64 48
  store <8 x float> %v935, ptr %v939, align 4
  br label %latch898
latch898:
  %inext897 = add i64 %i896, 1
  br label %head892
done894:
  %v940 = getelementptr inbounds float, ptr %slot887, i64 0
  %v941 = load <8 x float>, ptr %v940, align 4
  %v942 = getelementptr inbounds float, ptr %slot887, i64 16
  %v943 = load <8 x float>, ptr %v942, align 4
  %v944 = getelementptr inbounds float, ptr %slot887, i64 32
  %v945 = load <8 x float>, ptr %v944, align 4
  %v946 = getelementptr inbounds float, ptr %slot887, i64 48
  %v947 = load <8 x float>, ptr %v946, align 4
  %v948 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %v941, ptr %v948, align 4
  %v949 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %v943, ptr %v949, align 4
  %v950 = getelementptr inbounds float, ptr %state, i64 22
  store <8 x float> %v945, ptr %v950, align 4
  %v951 = getelementptr inbounds float, ptr %state, i64 32
  store <8 x float> %v947, ptr %v951, align 4
  br label %pv_done410
pv_done410:
  ret void
}

define internal void @tile2(ptr noalias %q, ptr noalias %state, ptr noalias %kt, ptr noalias %v, i64 %stride, i64 %cols, i64 %diff, i1 %masked, float %scale) "target-cpu"="x86-64-v3" "target-features"="+avx2,+fma" nounwind {
entry:
  %slot1 = alloca [32 x float], align 32
  %slot499 = alloca [64 x float], align 32
  call void asm sideeffect "", "r,~{memory}"(ptr %q)
  %v2 = getelementptr inbounds float, ptr %kt, i64 0
  %v3 = load <8 x float>, ptr %v2, align 4
  %v4 = getelementptr inbounds float, ptr %kt, i64 8
  %v5 = load <8 x float>, ptr %v4, align 4
  %v6 = getelementptr inbounds float, ptr %q, i64 0
  %v7 = load float, ptr %v6, align 4
  %v8 = insertelement <8 x float> poison, float %v7, i32 0
  %v9 = shufflevector <8 x float> %v8, <8 x float> poison, <8 x i32> zeroinitializer
  %v10 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v9, <8 x float> %v3, <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>)
  %v11 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v9, <8 x float> %v5, <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>)
  %v12 = getelementptr inbounds float, ptr %q, i64 8
  %v13 = load float, ptr %v12, align 4
  %v14 = insertelement <8 x float> poison, float %v13, i32 0
  %v15 = shufflevector <8 x float> %v14, <8 x float> poison, <8 x i32> zeroinitializer
  %v16 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v15, <8 x float> %v3, <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>)
  %v17 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v15, <8 x float> %v5, <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>)
  %v18 = getelementptr inbounds float, ptr %kt, i64 16
  %v19 = load <8 x float>, ptr %v18, align 4
  %v20 = getelementptr inbounds float, ptr %kt, i64 24
  %v21 = load <8 x float>, ptr %v20, align 4
  %v22 = getelementptr inbounds float, ptr %q, i64 1
  %v23 = load float, ptr %v22, align 4
  %v24 = insertelement <8 x float> poison, float %v23, i32 0
  %v25 = shufflevector <8 x float> %v24, <8 x float> poison, <8 x i32> zeroinitializer
  %v26 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v25, <8 x float> %v19, <8 x float> %v10)
  %v27 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v25, <8 x float> %v21, <8 x float> %v11)
  %v28 = getelementptr inbounds float, ptr %q, i64 9
  %v29 = load float, ptr %v28, align 4
  %v30 = insertelement <8 x float> poison, float %v29, i32 0
  %v31 = shufflevector <8 x float> %v30, <8 x float> poison, <8 x i32> zeroinitializer
  %v32 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v31, <8 x float> %v19, <8 x float> %v16)
  %v33 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v31, <8 x float> %v21, <8 x float> %v17)
  %v34 = getelementptr inbounds float, ptr %kt, i64 32
  %v35 = load <8 x float>, ptr %v34, align 4
  %v36 = getelementptr inbounds float, ptr %kt, i64 40
  %v37 = load <8 x float>, ptr %v36, align 4
  %v38 = getelementptr inbounds float, ptr %q, i64 2
  %v39 = load float, ptr %v38, align 4
  %v40 = insertelement <8 x float> poison, float %v39, i32 0
  %v41 = shufflevector <8 x float> %v40, <8 x float> poison, <8 x i32> zeroinitializer
  %v42 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v41, <8 x float> %v35, <8 x float> %v26)
  %v43 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v41, <8 x float> %v37, <8 x float> %v27)
  %v44 = getelementptr inbounds float, ptr %q, i64 10
  %v45 = load float, ptr %v44, align 4
  %v46 = insertelement <8 x float> poison, float %v45, i32 0
  %v47 = shufflevector <8 x float> %v46, <8 x float> poison, <8 x i32> zeroinitializer
  %v48 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v47, <8 x float> %v35, <8 x float> %v32)
  %v49 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v47, <8 x float> %v37, <8 x float> %v33)
  %v50 = getelementptr inbounds float, ptr %kt, i64 48
  %v51 = load <8 x float>, ptr %v50, align 4
  %v52 = getelementptr inbounds float, ptr %kt, i64 56
  %v53 = load <8 x float>, ptr %v52, align 4
  %v54 = getelementptr inbounds float, ptr %q, i64 3
  %v55 = load float, ptr %v54, align 4
  %v56 = insertelement <8 x float> poison, float %v55, i32 0
  %v57 = shufflevector <8 x float> %v56, <8 x float> poison, <8 x i32> zeroinitializer
  %v58 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v57, <8 x float> %v51, <8 x float> %v42)
  %v59 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v57, <8 x float> %v53, <8 x float> %v43)
  %v60 = getelementptr inbounds float, ptr %q, i64 11
  %v61 = load float, ptr %v60, align 4
  %v62 = insertelement <8 x float> poison, float %v61, i32 0
  %v63 = shufflevector <8 x float> %v62, <8 x float> poison, <8 x i32> zeroinitializer
  %v64 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v63, <8 x float> %v51, <8 x float> %v48)
  %v65 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v63, <8 x float> %v53, <8 x float> %v49)
  %v66 = getelementptr inbounds float, ptr %kt, i64 64
  %v67 = load <8 x float>, ptr %v66, align 4
  %v68 = getelementptr inbounds float, ptr %kt, i64 72
  %v69 = load <8 x float>, ptr %v68, align 4
  %v70 = getelementptr inbounds float, ptr %q, i64 4
  %v71 = load float, ptr %v70, align 4
  %v72 = insertelement <8 x float> poison, float %v71, i32 0
  %v73 = shufflevector <8 x float> %v72, <8 x float> poison, <8 x i32> zeroinitializer
  %v74 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v73, <8 x float> %v67, <8 x float> %v58)
  %v75 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v73, <8 x float> %v69, <8 x float> %v59)
  %v76 = getelementptr inbounds float, ptr %q, i64 12
  %v77 = load float, ptr %v76, align 4
  %v78 = insertelement <8 x float> poison, float %v77, i32 0
  %v79 = shufflevector <8 x float> %v78, <8 x float> poison, <8 x i32> zeroinitializer
  %v80 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v79, <8 x float> %v67, <8 x float> %v64)
  %v81 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v79, <8 x float> %v69, <8 x float> %v65)
  %v82 = getelementptr inbounds float, ptr %kt, i64 80
  %v83 = load <8 x float>, ptr %v82, align 4
  %v84 = getelementptr inbounds float, ptr %kt, i64 88
  %v85 = load <8 x float>, ptr %v84, align 4
  %v86 = getelementptr inbounds float, ptr %q, i64 5
  %v87 = load float, ptr %v86, align 4
  %v88 = insertelement <8 x float> poison, float %v87, i32 0
  %v89 = shufflevector <8 x float> %v88, <8 x float> poison, <8 x i32> zeroinitializer
  %v90 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v89, <8 x float> %v83, <8 x float> %v74)
  %v91 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v89, <8 x float> %v85, <8 x float> %v75)
  %v92 = getelementptr inbounds float, ptr %q, i64 13
  %v93 = load float, ptr %v92, align 4
  %v94 = insertelement <8 x float> poison, float %v93, i32 0
  %v95 = shufflevector <8 x float> %v94, <8 x float> poison, <8 x i32> zeroinitializer
  %v96 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v95, <8 x float> %v83, <8 x float> %v80)
  %v97 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v95, <8 x float> %v85, <8 x float> %v81)
  %v98 = getelementptr inbounds float, ptr %kt, i64 96
  %v99 = load <8 x float>, ptr %v98, align 4
  %v100 = getelementptr inbounds float, ptr %kt, i64 104
  %v101 = load <8 x float>, ptr %v100, align 4
  %v102 = getelementptr inbounds float, ptr %q, i64 6
  %v103 = load float, ptr %v102, align 4
  %v104 = insertelement <8 x float> poison, float %v103, i32 0
  %v105 = shufflevector <8 x float> %v104, <8 x float> poison, <8 x i32> zeroinitializer
  %v106 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v105, <8 x float> %v99, <8 x float> %v90)
  %v107 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v105, <8 x float> %v101, <8 x float> %v91)
  %v108 = getelementptr inbounds float, ptr %q, i64 14
  %v109 = load float, ptr %v108, align 4
  %v110 = insertelement <8 x float> poison, float %v109, i32 0
  %v111 = shufflevector <8 x float> %v110, <8 x float> poison, <8 x i32> zeroinitializer
  %v112 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v111, <8 x float> %v99, <8 x float> %v96)
  %v113 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v111, <8 x float> %v101, <8 x float> %v97)
  %v114 = getelementptr inbounds float, ptr %kt, i64 112
  %v115 = load <8 x float>, ptr %v114, align 4
  %v116 = getelementptr inbounds float, ptr %kt, i64 120
  %v117 = load <8 x float>, ptr %v116, align 4
  %v118 = getelementptr inbounds float, ptr %q, i64 7
  %v119 = load float, ptr %v118, align 4
  %v120 = insertelement <8 x float> poison, float %v119, i32 0
  %v121 = shufflevector <8 x float> %v120, <8 x float> poison, <8 x i32> zeroinitializer
  %v122 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v115, <8 x float> %v106)
  %v123 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v121, <8 x float> %v117, <8 x float> %v107)
  %v124 = getelementptr inbounds float, ptr %q, i64 15
  %v125 = load float, ptr %v124, align 4
  %v126 = insertelement <8 x float> poison, float %v125, i32 0
  %v127 = shufflevector <8 x float> %v126, <8 x float> poison, <8 x i32> zeroinitializer
  %v128 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v127, <8 x float> %v115, <8 x float> %v112)
  %v129 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v127, <8 x float> %v117, <8 x float> %v113)
  %v130 = insertelement <8 x float> poison, float %scale, i32 0
  %v131 = shufflevector <8 x float> %v130, <8 x float> poison, <8 x i32> zeroinitializer
  %v132 = fmul <8 x float> %v122, %v131
  %v133 = fmul <8 x float> %v123, %v131
  %v134 = fmul <8 x float> %v128, %v131
  %v135 = fmul <8 x float> %v129, %v131
  br label %nomask138
nomask138:
  br i1 %masked, label %mask136, label %masked137
mask136:
  %v139 = trunc i64 %cols to i32
  %v140 = insertelement <8 x i32> poison, i32 %v139, i32 0
  %v141 = shufflevector <8 x i32> %v140, <8 x i32> poison, <8 x i32> zeroinitializer
  %v142 = trunc i64 %diff to i32
  %v143 = add i32 %v142, 0
  %v144 = insertelement <8 x i32> poison, i32 %v143, i32 0
  %v145 = shufflevector <8 x i32> %v144, <8 x i32> poison, <8 x i32> zeroinitializer
  %v146 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v141
  %v147 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v145
  %v148 = and <8 x i1> %v146, %v147
  %v149 = select <8 x i1> %v148, <8 x float> %v132, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v150 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v141
  %v151 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v145
  %v152 = and <8 x i1> %v150, %v151
  %v153 = select <8 x i1> %v152, <8 x float> %v133, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v154 = add i32 %v142, 1
  %v155 = insertelement <8 x i32> poison, i32 %v154, i32 0
  %v156 = shufflevector <8 x i32> %v155, <8 x i32> poison, <8 x i32> zeroinitializer
  %v157 = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v141
  %v158 = icmp sle <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %v156
  %v159 = and <8 x i1> %v157, %v158
  %v160 = select <8 x i1> %v159, <8 x float> %v134, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  %v161 = icmp slt <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v141
  %v162 = icmp sle <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>, %v156
  %v163 = and <8 x i1> %v161, %v162
  %v164 = select <8 x i1> %v163, <8 x float> %v135, <8 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>
  br label %masked137
masked137:
  %v165 = phi <8 x float> [ %v132, %nomask138 ], [ %v149, %mask136 ]
  %v166 = phi <8 x float> [ %v133, %nomask138 ], [ %v153, %mask136 ]
  %v167 = phi <8 x float> [ %v134, %nomask138 ], [ %v160, %mask136 ]
  %v168 = phi <8 x float> [ %v135, %nomask138 ], [ %v164, %mask136 ]
  %v169 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v165, <8 x float> %v166)
  %v170 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v169)
  %v171 = getelementptr inbounds float, ptr %state, i64 0
  %v172 = load float, ptr %v171, align 4
  %v173 = call float @llvm.maxnum.f32(float %v172, float %v170)
  %v174 = fcmp oeq float %v173, 0xFFF0000000000000
  %v175 = select i1 %v174, float 0x0000000000000000, float %v173
  %v176 = insertelement <8 x float> poison, float %v175, i32 0
  %v177 = shufflevector <8 x float> %v176, <8 x float> poison, <8 x i32> zeroinitializer
  %v178 = fsub <8 x float> %v165, %v177
  %v179 = call <8 x float> @exp8(<8 x float> %v178)
  %v180 = getelementptr inbounds float, ptr %slot1, i64 0
  store <8 x float> %v179, ptr %v180, align 4
  %v181 = fadd <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %v179
  %v182 = fsub <8 x float> %v166, %v177
  %v183 = call <8 x float> @exp8(<8 x float> %v182)
  %v184 = getelementptr inbounds float, ptr %slot1, i64 8
  store <8 x float> %v183, ptr %v184, align 4
  %v185 = fadd <8 x float> %v181, %v183
  %v186 = call float @llvm.vector.reduce.fadd.v8f32(float 0x0000000000000000, <8 x float> %v185)
  %v187 = fsub float %v172, %v175
  %v188 = insertelement <8 x float> poison, float %v187, i32 0
  %v189 = shufflevector <8 x float> %v188, <8 x float> poison, <8 x i32> zeroinitializer
  %v190 = call <8 x float> @exp8(<8 x float> %v189)
  %v191 = extractelement <8 x float> %v190, i32 0
  %v192 = getelementptr inbounds float, ptr %state, i64 1
  %v193 = load float, ptr %v192, align 4
  %v194 = call float @llvm.fma.f32(float %v193, float %v191, float %v186)
  store float %v194, ptr %v192, align 4
  store float %v173, ptr %v171, align 4
  %v195 = insertelement <8 x float> poison, float %v191, i32 0
  %v196 = shufflevector <8 x float> %v195, <8 x float> poison, <8 x i32> zeroinitializer
  %v197 = call <8 x float> @llvm.maxnum.v8f32(<8 x float> %v167, <8 x float> %v168)
  %v198 = call float @llvm.vector.reduce.fmax.v8f32(<8 x float> %v197)
  %v199 = getelementptr inbounds float, ptr %state, i64 10
  %v200 = load float, ptr %v199, align 4
  %v201 = call float @llvm.maxnum.f32(float %v200, float %v198)
  %v202 = fcmp oeq float %v201, 0xFFF0000000000000
  %v203 = select i1 %v202, float 0x0000000000000000, float %v201
  %v204 = insertelement <8 x float> poison, float %v203, i32 0
  %v205 = shufflevector <8 x float> %v204, <8 x float> poison, <8 x i32> zeroinitializer
  %v206 = fsub <8 x float> %v167, %v205
  %v207 = call <8 x float> @exp8(<8 x float> %v206)
  %v208 = getelementptr inbounds float, ptr %slot1, i64 16
  store <8 x float> %v207, ptr %v208, align 4
  %v209 = fadd <8 x float> <float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000, float 0x0000000000000000>, %v207
  %v210 = fsub <8 x float> %v168, %v205
  %v211 = call <8 x float> @exp8(<8 x float> %v210)
  %v212 = getelementptr inbounds float, ptr %slot1, i64 24
  store <8 x float> %v211, ptr %v212, align 4
  %v213 = fadd <8 x float> %v209, %v211
  %v214 = call float @llvm.vector.reduce.fadd.v8f32(float 0x0000000000000000, <8 x float> %v213)
  %v215 = fsub float %v200, %v203
  %v216 = insertelement <8 x float> poison, float %v215, i32 0
  %v217 = shufflevector <8 x float> %v216, <8 x float> poison, <8 x i32> zeroinitializer
  %v218 = call <8 x float> @exp8(<8 x float> %v217)
  %v219 = extractelement <8 x float> %v218, i32 0
  %v220 = getelementptr inbounds float, ptr %state, i64 11
  %v221 = load float, ptr %v220, align 4
  %v222 = call float @llvm.fma.f32(float %v221, float %v219, float %v214)
  store float %v222, ptr %v220, align 4
  store float %v201, ptr %v199, align 4
  %v223 = insertelement <8 x float> poison, float %v219, i32 0
  %v224 = shufflevector <8 x float> %v223, <8 x float> poison, <8 x i32> zeroinitializer
  %v225 = icmp eq i64 %cols, 16
  br i1 %v225, label %pv_full226, label %pv_part227
pv_full226:
  call void asm sideeffect "", "r,~{memory}"(ptr %slot1)
  %v229 = getelementptr inbounds float, ptr %state, i64 2
  %v230 = load <8 x float>, ptr %v229, align 4
  %v231 = fmul <8 x float> %v230, %v196
  %v232 = getelementptr inbounds float, ptr %state, i64 12
  %v233 = load <8 x float>, ptr %v232, align 4
  %v234 = fmul <8 x float> %v233, %v224
  %v235 = mul i64 0, %stride
  %v236 = add i64 %v235, 0
  %v237 = getelementptr inbounds float, ptr %v, i64 %v236
  %v238 = load <8 x float>, ptr %v237, align 4
  %v239 = add i64 0, 0
  %v240 = getelementptr inbounds float, ptr %slot1, i64 %v239
  %v241 = load float, ptr %v240, align 4
  %v242 = insertelement <8 x float> poison, float %v241, i32 0
  %v243 = shufflevector <8 x float> %v242, <8 x float> poison, <8 x i32> zeroinitializer
  %v244 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v243, <8 x float> %v238, <8 x float> %v231)
  %v245 = add i64 0, 16
  %v246 = getelementptr inbounds float, ptr %slot1, i64 %v245
  %v247 = load float, ptr %v246, align 4
  %v248 = insertelement <8 x float> poison, float %v247, i32 0
  %v249 = shufflevector <8 x float> %v248, <8 x float> poison, <8 x i32> zeroinitializer
  %v250 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v249, <8 x float> %v238, <8 x float> %v234)
  %v251 = mul i64 1, %stride
  %v252 = add i64 %v251, 0
  %v253 = getelementptr inbounds float, ptr %v, i64 %v252
  %v254 = load <8 x float>, ptr %v253, align 4
  %v255 = add i64 1, 0
  %v256 = getelementptr inbounds float, ptr %slot1, i64 %v255
  %v257 = load float, ptr %v256, align 4
  %v258 = insertelement <8 x float> poison, float %v257, i32 0
  %v259 = shufflevector <8 x float> %v258, <8 x float> poison, <8 x i32> zeroinitializer
  %v260 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v259, <8 x float> %v254, <8 x float> %v244)
  %v261 = add i64 1, 16
  %v262 = getelementptr inbounds float, ptr %slot1, i64 %v261
  %v263 = load float, ptr %v262, align 4
  %v264 = insertelement <8 x float> poison, float %v263, i32 0
  %v265 = shufflevector <8 x float> %v264, <8 x float> poison, <8 x i32> zeroinitializer
  %v266 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v265, <8 x float> %v254, <8 x float> %v250)
  %v267 = mul i64 2, %stride
  %v268 = add i64 %v267, 0
  %v269 = getelementptr inbounds float, ptr %v, i64 %v268
  %v270 = load <8 x float>, ptr %v269, align 4
  %v271 = add i64 2, 0
  %v272 = getelementptr inbounds float, ptr %slot1, i64 %v271
  %v273 = load float, ptr %v272, align 4
  %v274 = insertelement <8 x float> poison, float %v273, i32 0
  %v275 = shufflevector <8 x float> %v274, <8 x float> poison, <8 x i32> zeroinitializer
  %v276 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v275, <8 x float> %v270, <8 x float> %v260)
  %v277 = add i64 2, 16
  %v278 = getelementptr inbounds float, ptr %slot1, i64 %v277
  %v279 = load float, ptr %v278, align 4
  %v280 = insertelement <8 x float> poison, float %v279, i32 0
  %v281 = shufflevector <8 x float> %v280, <8 x float> poison, <8 x i32> zeroinitializer
  %v282 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v281, <8 x float> %v270, <8 x float> %v266)
  %v283 = mul i64 3, %stride
  %v284 = add i64 %v283, 0
  %v285 = getelementptr inbounds float, ptr %v, i64 %v284
  %v286 = load <8 x float>, ptr %v285, align 4
  %v287 = add i64 3, 0
  %v288 = getelementptr inbounds float, ptr %slot1, i64 %v287
  %v289 = load float, ptr %v288, align 4
  %v290 = insertelement <8 x float> poison, float %v289, i32 0
  %v291 = shufflevector <8 x float> %v290, <8 x float> poison, <8 x i32> zeroinitializer
  %v292 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v291, <8 x float> %v286, <8 x float> %v276)
  %v293 = add i64 3, 16
  %v294 = getelementptr inbounds float, ptr %slot1, i64 %v293
  %v295 = load float, ptr %v294, align 4
  %v296 = insertelement <8 x float> poison, float %v295, i32 0
  %v297 = shufflevector <8 x float> %v296, <8 x float> poison, <8 x i32> zeroinitializer
  %v298 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v297, <8 x float> %v286, <8 x float> %v282)
  %v299 = mul i64 4, %stride
  %v300 = add i64 %v299, 0
  %v301 = getelementptr inbounds float, ptr %v, i64 %v300
  %v302 = load <8 x float>, ptr %v301, align 4
  %v303 = add i64 4, 0
  %v304 = getelementptr inbounds float, ptr %slot1, i64 %v303
  %v305 = load float, ptr %v304, align 4
  %v306 = insertelement <8 x float> poison, float %v305, i32 0
  %v307 = shufflevector <8 x float> %v306, <8 x float> poison, <8 x i32> zeroinitializer
  %v308 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v307, <8 x float> %v302, <8 x float> %v292)
  %v309 = add i64 4, 16
  %v310 = getelementptr inbounds float, ptr %slot1, i64 %v309
  %v311 = load float, ptr %v310, align 4
  %v312 = insertelement <8 x float> poison, float %v311, i32 0
  %v313 = shufflevector <8 x float> %v312, <8 x float> poison, <8 x i32> zeroinitializer
  %v314 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v313, <8 x float> %v302, <8 x float> %v298)
  %v315 = mul i64 5, %stride
  %v316 = add i64 %v315, 0
  %v317 = getelementptr inbounds float, ptr %v, i64 %v316
  %v318 = load <8 x float>, ptr %v317, align 4
  %v319 = add i64 5, 0
  %v320 = getelementptr inbounds float, ptr %slot1, i64 %v319
  %v321 = load float, ptr %v320, align 4
  %v322 = insertelement <8 x float> poison, float %v321, i32 0
  %v323 = shufflevector <8 x float> %v322, <8 x float> poison, <8 x i32> zeroinitializer
  %v324 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v323, <8 x float> %v318, <8 x float> %v308)
  %v325 = add i64 5, 16
  %v326 = getelementptr inbounds float, ptr %slot1, i64 %v325
  %v327 = load float, ptr %v326, align 4
  %v328 = insertelement <8 x float> poison, float %v327, i32 0
  %v329 = shufflevector <8 x float> %v328, <8 x float> poison, <8 x i32> zeroinitializer
  %v330 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v329, <8 x float> %v318, <8 x float> %v314)
  %v331 = mul i64 6, %stride
  %v332 = add i64 %v331, 0
  %v333 = getelementptr inbounds float, ptr %v, i64 %v332
  %v334 = load <8 x float>, ptr %v333, align 4
  %v335 = add i64 6, 0
  %v336 = getelementptr inbounds float, ptr %slot1, i64 %v335
  %v337 = load float, ptr %v336, align 4
  %v338 = insertelement <8 x float> poison, float %v337, i32 0
  %v339 = shufflevector <8 x float> %v338, <8 x float> poison, <8 x i32> zeroinitializer
  %v340 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v339, <8 x float> %v334, <8 x float> %v324)
  %v341 = add i64 6, 16
  %v342 = getelementptr inbounds float, ptr %slot1, i64 %v341
  %v343 = load float, ptr %v342, align 4
  %v344 = insertelement <8 x float> poison, float %v343, i32 0
  %v345 = shufflevector <8 x float> %v344, <8 x float> poison, <8 x i32> zeroinitializer
  %v346 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v345, <8 x float> %v334, <8 x float> %v330)
  %v347 = mul i64 7, %stride
  %v348 = add i64 %v347, 0
  %v349 = getelementptr inbounds float, ptr %v, i64 %v348
  %v350 = load <8 x float>, ptr %v349, align 4
  %v351 = add i64 7, 0
  %v352 = getelementptr inbounds float, ptr %slot1, i64 %v351
  %v353 = load float, ptr %v352, align 4
  %v354 = insertelement <8 x float> poison, float %v353, i32 0
  %v355 = shufflevector <8 x float> %v354, <8 x float> poison, <8 x i32> zeroinitializer
  %v356 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v355, <8 x float> %v350, <8 x float> %v340)
  %v357 = add i64 7, 16
  %v358 = getelementptr inbounds float, ptr %slot1, i64 %v357
  %v359 = load float, ptr %v358, align 4
  %v360 = insertelement <8 x float> poison, float %v359, i32 0
  %v361 = shufflevector <8 x float> %v360, <8 x float> poison, <8 x i32> zeroinitializer
  %v362 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v361, <8 x float> %v350, <8 x float> %v346)
  %v363 = mul i64 8, %stride
  %v364 = add i64 %v363, 0
  %v365 = getelementptr inbounds float, ptr %v, i64 %v364
  %v366 = load <8 x float>, ptr %v365, align 4
  %v367 = add i64 8, 0
  %v368 = getelementptr inbounds float, ptr %slot1, i64 %v367
  %v369 = load float, ptr %v368, align 4
  %v370 = insertelement <8 x float> poison, float %v369, i32 0
  %v371 = shufflevector <8 x float> %v370, <8 x float> poison, <8 x i32> zeroinitializer
  %v372 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v371, <8 x float> %v366, <8 x float> %v356)
  %v373 = add i64 8, 16
  %v374 = getelementptr inbounds float, ptr %slot1, i64 %v373
  %v375 = load float, ptr %v374, align 4
  %v376 = insertelement <8 x float> poison, float %v375, i32 0
  %v377 = shufflevector <8 x float> %v376, <8 x float> poison, <8 x i32> zeroinitializer
  %v378 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v377, <8 x float> %v366, <8 x float> %v362)
  %v379 = mul i64 9, %stride
  %v380 = add i64 %v379, 0
  %v381 = getelementptr inbounds float, ptr %v, i64 %v380
  %v382 = load <8 x float>, ptr %v381, align 4
  %v383 = add i64 9, 0
  %v384 = getelementptr inbounds float, ptr %slot1, i64 %v383
  %v385 = load float, ptr %v384, align 4
  %v386 = insertelement <8 x float> poison, float %v385, i32 0
  %v387 = shufflevector <8 x float> %v386, <8 x float> poison, <8 x i32> zeroinitializer
  %v388 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v387, <8 x float> %v382, <8 x float> %v372)
  %v389 = add i64 9, 16
  %v390 = getelementptr inbounds float, ptr %slot1, i64 %v389
  %v391 = load float, ptr %v390, align 4
  %v392 = insertelement <8 x float> poison, float %v391, i32 0
  %v393 = shufflevector <8 x float> %v392, <8 x float> poison, <8 x i32> zeroinitializer
  %v394 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v393, <8 x float> %v382, <8 x float> %v378)
  %v395 = mul i64 10, %stride
  %v396 = add i64 %v395, 0
  %v397 = getelementptr inbounds float, ptr %v, i64 %v396
  %v398 = load <8 x float>, ptr %v397, align 4
  %v399 = add i64 10, 0
  %v400 = getelementptr inbounds float, ptr %slot1, i64 %v399
  %v401 = load float, ptr %v400, align 4
  %v402 = insertelement <8 x float> poison, float %v401, i32 0
  %v403 = shufflevector <8 x float> %v402, <8 x float> poison, <8 x i32> zeroinitializer
  %v404 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v403, <8 x float> %v398, <8 x float> %v388)
  %v405 = add i64 10, 16
  %v406 = getelementptr inbounds float, ptr %slot1, i64 %v405
  %v407 = load float, ptr %v406, align 4
  %v408 = insertelement <8 x float> poison, float %v407, i32 0
  %v409 = shufflevector <8 x float> %v408, <8 x float> poison, <8 x i32> zeroinitializer
  %v410 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v409, <8 x float> %v398, <8 x float> %v394)
  %v411 = mul i64 11, %stride
  %v412 = add i64 %v411, 0
  %v413 = getelementptr inbounds float, ptr %v, i64 %v412
  %v414 = load <8 x float>, ptr %v413, align 4
  %v415 = add i64 11, 0
  %v416 = getelementptr inbounds float, ptr %slot1, i64 %v415
  %v417 = load float, ptr %v416, align 4
  %v418 = insertelement <8 x float> poison, float %v417, i32 0
  %v419 = shufflevector <8 x float> %v418, <8 x float> poison, <8 x i32> zeroinitializer
  %v420 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v419, <8 x float> %v414, <8 x float> %v404)
  %v421 = add i64 11, 16
  %v422 = getelementptr inbounds float, ptr %slot1, i64 %v421
  %v423 = load float, ptr %v422, align 4
  %v424 = insertelement <8 x float> poison, float %v423, i32 0
  %v425 = shufflevector <8 x float> %v424, <8 x float> poison, <8 x i32> zeroinitializer
  %v426 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v425, <8 x float> %v414, <8 x float> %v410)
  %v427 = mul i64 12, %stride
  %v428 = add i64 %v427, 0
  %v429 = getelementptr inbounds float, ptr %v, i64 %v428
  %v430 = load <8 x float>, ptr %v429, align 4
  %v431 = add i64 12, 0
  %v432 = getelementptr inbounds float, ptr %slot1, i64 %v431
  %v433 = load float, ptr %v432, align 4
  %v434 = insertelement <8 x float> poison, float %v433, i32 0
  %v435 = shufflevector <8 x float> %v434, <8 x float> poison, <8 x i32> zeroinitializer
  %v436 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v435, <8 x float> %v430, <8 x float> %v420)
  %v437 = add i64 12, 16
  %v438 = getelementptr inbounds float, ptr %slot1, i64 %v437
  %v439 = load float, ptr %v438, align 4
  %v440 = insertelement <8 x float> poison, float %v439, i32 0
  %v441 = shufflevector <8 x float> %v440, <8 x float> poison, <8 x i32> zeroinitializer
  %v442 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v441, <8 x float> %v430, <8 x float> %v426)
  %v443 = mul i64 13, %stride
  %v444 = add i64 %v443, 0
  %v445 = getelementptr inbounds float, ptr %v, i64 %v444
  %v446 = load <8 x float>, ptr %v445, align 4
  %v447 = add i64 13, 0
  %v448 = getelementptr inbounds float, ptr %slot1, i64 %v447
  %v449 = load float, ptr %v448, align 4
  %v450 = insertelement <8 x float> poison, float %v449, i32 0
  %v451 = shufflevector <8 x float> %v450, <8 x float> poison, <8 x i32> zeroinitializer
  %v452 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v451, <8 x float> %v446, <8 x float> %v436)
  %v453 = add i64 13, 16
  %v454 = getelementptr inbounds float, ptr %slot1, i64 %v453
  %v455 = load float, ptr %v454, align 4
  %v456 = insertelement <8 x float> poison, float %v455, i32 0
  %v457 = shufflevector <8 x float> %v456, <8 x float> poison, <8 x i32> zeroinitializer
  %v458 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v457, <8 x float> %v446, <8 x float> %v442)
  %v459 = mul i64 14, %stride
  %v460 = add i64 %v459, 0
  %v461 = getelementptr inbounds float, ptr %v, i64 %v460
  %v462 = load <8 x float>, ptr %v461, align 4
  %v463 = add i64 14, 0
  %v464 = getelementptr inbounds float, ptr %slot1, i64 %v463
  %v465 = load float, ptr %v464, align 4
  %v466 = insertelement <8 x float> poison, float %v465, i32 0
  %v467 = shufflevector <8 x float> %v466, <8 x float> poison, <8 x i32> zeroinitializer
  %v468 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v467, <8 x float> %v462, <8 x float> %v452)
  %v469 = add i64 14, 16
  %v470 = getelementptr inbounds float, ptr %slot1, i64 %v469
  %v471 = load float, ptr %v470, align 4
  %v472 = insertelement <8 x float> poison, float %v471, i32 0
  %v473 = shufflevector <8 x float> %v472, <8 x float> poison, <8 x i32> zeroinitializer
  %v474 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v473, <8 x float> %v462, <8 x float> %v458)
  %v475 = mul i64 15, %stride
  %v476 = add i64 %v475, 0
  %v477 = getelementptr inbounds float, ptr %v, i64 %v476
  %v478 = load <8 x float>, ptr %v477, align 4
  %v479 = add i64 15, 0
  %v480 = getelementptr inbounds float, ptr %slot1, i64 %v479
  %v481 = load float, ptr %v480, align 4
  %v482 = insertelement <8 x float> poison, float %v481, i32 0
  %v483 = shufflevector <8 x float> %v482, <8 x float> poison, <8 x i32> zeroinitializer
  %v484 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v483, <8 x float> %v478, <8 x float> %v468)
  %v485 = add i64 15, 16
  %v486 = getelementptr inbounds float, ptr %slot1, i64 %v485
  %v487 = load float, ptr %v486, align 4
  %v488 = insertelement <8 x float> poison, float %v487, i32 0
  %v489 = shufflevector <8 x float> %v488, <8 x float> poison, <8 x i32> zeroinitializer
  %v490 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v489, <8 x float> %v478, <8 x float> %v474)
  %v491 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %v484, ptr %v491, align 4
  %v492 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %v490, ptr %v492, align 4
  br label %pv_done228
pv_part227:
  call void asm sideeffect "", "r,~{memory}"(ptr %slot1)
  %v493 = getelementptr inbounds float, ptr %state, i64 2
  %v494 = load <8 x float>, ptr %v493, align 4
  %v495 = fmul <8 x float> %v494, %v196
  %v496 = getelementptr inbounds float, ptr %state, i64 12
  %v497 = load <8 x float>, ptr %v496, align 4
  %v498 = fmul <8 x float> %v497, %v224
  %v500 = getelementptr inbounds float, ptr %slot499, i64 0
  store <8 x float> %v495, ptr %v500, align 4
  %v501 = getelementptr inbounds float, ptr %slot499, i64 32
  store <8 x float> %v498, ptr %v501, align 4
  br label %pre505
pre505:
  br label %head502
head502:
  %i506 = phi i64 [ 0, %pre505 ], [ %inext507, %latch508 ]
  %v509 = icmp slt i64 %i506, %cols
  br i1 %v509, label %body503, label %done504
body503:
  %v510 = getelementptr inbounds float, ptr %slot499, i64 0
  %v511 = load <8 x float>, ptr %v510, align 4
  %v512 = getelementptr inbounds float, ptr %slot499, i64 32
  %v513 = load <8 x float>, ptr %v512, align 4
  %v514 = mul i64 %i506, %stride
  %v515 = add i64 %v514, 0
  %v516 = getelementptr inbounds float, ptr %v, i64 %v515
  %v517 = load <8 x float>, ptr %v516, align 4
  %v518 = add i64 %i506, 0
  %v519 = getelementptr inbounds float, ptr %slot1, i64 %v518
  %v520 = load float, ptr %v519, align 4
  %v521 = insertelement <8 x float> poison, float %v520, i32 0
  %v522 = shufflevector <8 x float> %v521, <8 x float> poison, <8 x i32> zeroinitializer
  %v523 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v522, <8 x float> %v517, <8 x float> %v511)
  %v524 = add i64 %i506, 16
  %v525 = getelementptr inbounds float, ptr %slot1, i64 %v524
  %v526 = load float, ptr %v525, align 4
  %v527 = insertelement <8 x float> poison, float %v526, i32 0
  %v528 = shufflevector <8 x float> %v527, <8 x float> poison, <8 x i32> zeroinitializer
  %v529 = call <8 x float> @llvm.fma.v8f32(<8 x float> %v528, <8 x float> %v517, <8 x float> %v513)
  %v530 = getelementptr inbounds float, ptr %slot499, i64 0
  store <8 x float> %v523, ptr %v530, align 4
  %v531 = getelementptr inbounds float, ptr %slot499, i64 32
  store <8 x float> %v529, ptr %v531, align 4
  br label %latch508
latch508:
  %inext507 = add i64 %i506, 1
  br label %head502
done504:
  %v532 = getelementptr inbounds float, ptr %slot499, i64 0
  %v533 = load <8 x float>, ptr %v532, align 4
  %v534 = getelementptr inbounds float, ptr %slot499, i64 32
  %v535 = load <8 x float>, ptr %v534, align 4
  %v536 = getelementptr inbounds float, ptr %state, i64 2
  store <8 x float> %v533, ptr %v536, align 4
  %v537 = getelementptr inbounds float, ptr %state, i64 12
  store <8 x float> %v535, ptr %v537, align 4
  br label %pv_done228
pv_done228:
  ret void
}

define void @attn_fwd_d8_causal_fp32_g1_t2x16(ptr noalias %args) "target-cpu"="x86-64-v3" "target-features"="+avx2,+fma" nounwind {
entry:
  %slot7 = alloca [128 x float], align 32
  %v1 = getelementptr inbounds i8, ptr %args, i64 0
  %v2 = load ptr, ptr %v1, align 8
  %v3 = getelementptr inbounds i8, ptr %args, i64 8
  %v4 = load ptr, ptr %v3, align 8
  %v5 = getelementptr inbounds i8, ptr %args, i64 16
  %v6 = load ptr, ptr %v5, align 8
  %v8 = getelementptr inbounds i8, ptr %args, i64 32
  %v9 = load i64, ptr %v8, align 8
  %v10 = getelementptr inbounds i8, ptr %args, i64 40
  %v11 = load i64, ptr %v10, align 8
  %v12 = getelementptr inbounds i8, ptr %args, i64 48
  %v13 = load i64, ptr %v12, align 8
  %v14 = getelementptr inbounds i8, ptr %args, i64 56
  %v15 = load i64, ptr %v14, align 8
  %v16 = getelementptr inbounds i8, ptr %args, i64 64
  %v17 = load i64, ptr %v16, align 8
  %v18 = getelementptr inbounds i8, ptr %args, i64 72
  %v19 = load float, ptr %v18, align 4
  %v20 = getelementptr inbounds float, ptr %v4, i64 8
  br label %pre24
pre24:
  br label %head21
head21:
  %i25 = phi i64 [ 0, %pre24 ], [ %inext26, %latch27 ]
  %v28 = icmp slt i64 %i25, %v11
  br i1 %v28, label %body22, label %done23
body22:
  %v29 = add i64 %i25, 256
  %v30 = call i64 @llvm.smin.i64(i64 %v29, i64 %v11)
  %v31 = add i64 %v15, %i25
  %v32 = add i64 %v15, %v30
  %v33 = sub i64 %v32, 1
  %v34 = add i64 %v33, 1
  %v35 = sub i64 %v34, %v17
  %v36 = call i64 @llvm.smax.i64(i64 %v35, i64 0)
  %v37 = call i64 @llvm.smin.i64(i64 %v36, i64 %v13)
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
  %v57 = mul i64 %v56, %v9
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
  br label %latch54
latch54:
  %inext53 = add i64 %i52, 1
  br label %head48
done50:
  %v91 = add i64 %v17, %i42
  %v92 = add i64 %v91, %v47
  %v93 = sub i64 %v92, 1
  %v94 = sub i64 %v91, %v15
  %v95 = call i64 @llvm.smax.i64(i64 %v94, i64 0)
  %v96 = call i64 @llvm.smin.i64(i64 %v95, i64 %v11)
  %v97 = sdiv i64 %v96, 2
  %v98 = mul i64 %v97, 2
  %v99 = add i64 %v11, 1
  %v100 = sdiv i64 %v99, 2
  %v101 = mul i64 %v100, 2
  %v102 = call i64 @llvm.smax.i64(i64 %v98, i64 %i25)
  %v103 = call i64 @llvm.smin.i64(i64 %v101, i64 %v30)
  %v104 = icmp slt i64 %v47, 16
  %v105 = mul i64 %i42, %v9
  %v106 = getelementptr inbounds float, ptr %v20, i64 %v105
  %v107 = sub i64 %v103, %v102
  %v108 = call i64 @llvm.smax.i64(i64 %v107, i64 0)
  %v109 = sdiv i64 %v108, 4
  %v110 = mul i64 %v109, 4
  %v111 = add i64 %v102, %v110
  br label %pre115
pre115:
  br label %head112
head112:
  %i116 = phi i64 [ %v102, %pre115 ], [ %inext117, %latch118 ]
  %v119 = icmp slt i64 %i116, %v111
  br i1 %v119, label %body113, label %done114
body113:
  %v120 = add i64 %v15, %i116
  %v121 = add i64 %v120, 4
  %v122 = sub i64 %v121, 1
  %v123 = icmp sgt i64 %v93, %v120
  %v124 = or i1 %v104, %v123
  %v125 = sub i64 %v120, %v91
  %v126 = call i64 @llvm.smax.i64(i64 %v125, i64 -1073741824)
  %v127 = call i64 @llvm.smin.i64(i64 %v126, i64 1073741824)
  %v128 = mul i64 %i116, 8
  %v129 = getelementptr inbounds float, ptr %v2, i64 %v128
  %v130 = mul i64 %i116, 10
  %v131 = getelementptr inbounds float, ptr %v6, i64 %v130
  call void @tile4(ptr %v129, ptr %v131, ptr %slot7, ptr %v106, i64 %v9, i64 %v47, i64 %v127, i1 %v124, float %v19)
  br label %latch118
latch118:
  %inext117 = add i64 %i116, 4
  br label %head112
done114:
  br label %pre135
pre135:
  br label %head132
head132:
  %i136 = phi i64 [ %v111, %pre135 ], [ %inext137, %latch138 ]
  %v139 = icmp slt i64 %i136, %v103
  br i1 %v139, label %body133, label %done134
body133:
  %v140 = add i64 %v15, %i136
  %v141 = add i64 %v140, 2
  %v142 = sub i64 %v141, 1
  %v143 = icmp sgt i64 %v93, %v140
  %v144 = or i1 %v104, %v143
  %v145 = sub i64 %v140, %v91
  %v146 = call i64 @llvm.smax.i64(i64 %v145, i64 -1073741824)
  %v147 = call i64 @llvm.smin.i64(i64 %v146, i64 1073741824)
  %v148 = mul i64 %i136, 8
  %v149 = getelementptr inbounds float, ptr %v2, i64 %v148
  %v150 = mul i64 %i136, 10
  %v151 = getelementptr inbounds float, ptr %v6, i64 %v150
  call void @tile2(ptr %v149, ptr %v151, ptr %slot7, ptr %v106, i64 %v9, i64 %v47, i64 %v147, i1 %v144, float %v19)
  br label %latch138
latch138:
  %inext137 = add i64 %i136, 2
  br label %head132
done134:
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
