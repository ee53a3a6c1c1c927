/* cuda: the CUDA driver API and cuBLAS, loaded at run time with dlopen, so no toolkit is needed to build. */
#ifndef PTXTUTOR_CUDA_H
#define PTXTUTOR_CUDA_H

#include <stddef.h>

#include "model/devices.h"

/* The few driver types we use, declared by us (ABI-compatible with cuda.h). */
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct cublasContext *cublasHandle_t;
/* cuBLASLt's handles and descriptors (cublasLt.h): opaque pointers. */
typedef struct cublasLtContext *cublasLtHandle_t;
typedef struct cublasLtMatmulDescOpaque_st *cublasLtMatmulDesc_t;
typedef struct cublasLtMatrixLayoutOpaque_st *cublasLtMatrixLayout_t;
typedef struct cublasLtMatmulPreferenceOpaque_st *cublasLtMatmulPreference_t;
typedef struct CUlinkState_st *CUlinkState;

enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
	CUDA_ERROR_INVALID_PTX = 218,
	CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
	CUDA_ERROR_NOT_FOUND = 500,
	CUDA_ERROR_ILLEGAL_ADDRESS = 700,
	CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
	CUDA_ERROR_LAUNCH_TIMEOUT = 702,
	CUDA_ERROR_LAUNCH_FAILED = 719,
};

/* CUjit_option values. */
enum {
	CU_JIT_WALL_TIME = 2,
	CU_JIT_INFO_LOG_BUFFER = 3,
	CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
	CU_JIT_LOG_VERBOSE = 12,
	CU_JIT_GENERATE_LINE_INFO = 13, /* 1: line tables from the PTX's .loc directives (profilers, SASS view) */
};

/* CUfunction_attribute values. */
enum {
	CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
	CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
	CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
	CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
	CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

/* CUdevice_attribute values. */
enum {
	CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
	CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
	CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
	CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
	CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
	CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
	CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
	CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
	CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR = 82,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR = 106,
	CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK = 111,
};

/* A TMA descriptor (cuda.h's CUtensorMap): 128 opaque bytes, 64-byte aligned,
 * made on the host and passed to a kernel by value. */
typedef struct {
	_Alignas(64) unsigned long long opaque[16];
} CUtensorMap;

/* CUtensorMapDataType, CUtensorMapSwizzle and friends: the values we use
 * (the data types through course/dtype.c's table, which test_dtype checks
 * against these). */
enum { CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0, CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6, CU_TENSOR_MAP_DATA_TYPE_FLOAT32 = 7, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9 };
enum { CU_TENSOR_MAP_INTERLEAVE_NONE = 0 };
enum { CU_TENSOR_MAP_L2_PROMOTION_L2_256B = 3 };
enum { CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0 };

/* A launch with attributes (cuLaunchKernelEx, CUDA 11.8+), as cuda.h lays
 * it out: CUlaunchAttribute is a 4-byte id, 4 bytes of padding and a 64-byte
 * union of values (8-byte aligned: it holds pointers), 72 bytes in all;
 * CUlaunchConfig is seven unsigned, the stream, the attribute array and
 * its count. We set only the cluster's dimensions. */
enum { CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4 };
typedef struct {
	int id;                   /* CUlaunchAttributeID */
	char pad[4];
	union {
		char pad[64];
		void *align;      /* the union holds pointers: 8-byte aligned */
		struct {
			unsigned x, y, z;
		} clusterDim;
	} value;
} CUlaunchAttribute;
typedef struct {
	unsigned gridDimX, gridDimY, gridDimZ;
	unsigned blockDimX, blockDimY, blockDimZ;
	unsigned sharedMemBytes;
	CUstream hStream;
	CUlaunchAttribute *attrs;
	unsigned numAttrs;
} CUlaunchConfig;
_Static_assert(sizeof(CUlaunchAttribute) == 72, "CUlaunchAttribute as in cuda.h");
_Static_assert(offsetof(CUlaunchConfig, hStream) == 32 && offsetof(CUlaunchConfig, attrs) == 40 &&
		       sizeof(CUlaunchConfig) == 56,
	       "CUlaunchConfig as in cuda.h");

/* cuBLAS enums (cublas_api.h, library_types.h). */
enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 };
enum { CUDA_R_32F = 0, CUDA_R_16F = 2, CUDA_R_16BF = 14, CUDA_R_8F_E4M3 = 28, CUDA_R_8F_E5M2 = 29,
       CUDA_R_8I = 3, CUDA_R_32I = 10 };
/* FAST_TF32: f32 in memory, the inputs rounded to tf32 for the tensor cores;
 * 32I: int8 inputs, int32 sums, and alpha and beta int32 (the scale type is CUDA_R_32I) */
enum { CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_32F_FAST_TF32 = 77, CUBLAS_COMPUTE_32I = 72 };
enum { CUBLAS_GEMM_DEFAULT = -1 };

/* cuBLASLt (cublasLt.h), as it lays them out: an algorithm is 64 opaque
 * bytes, a heuristic's result the algorithm, its workspace, its status,
 * its waves count and four reserved ints. The attribute numbers we set. */
typedef struct {
	unsigned long long data[8];
} cublasLtMatmulAlgo_t;
typedef struct {
	cublasLtMatmulAlgo_t algo;
	size_t workspaceSize;
	int state;                /* cublasStatus_t */
	float wavesCount;
	int reserved[4];
} cublasLtMatmulHeuristicResult_t;
_Static_assert(sizeof(cublasLtMatmulHeuristicResult_t) == 96, "cublasLtMatmulHeuristicResult_t as in cublasLt.h");
enum { CUBLASLT_MATMUL_DESC_TRANSA = 3, CUBLASLT_MATMUL_DESC_TRANSB = 4,
       CUBLASLT_MATMUL_DESC_A_SCALE_POINTER = 17, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER = 18,
       CUBLASLT_MATMUL_DESC_FAST_ACCUM = 25 };
enum { CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1 };
/* cublasLtMatmulAlgoConfigAttributes_t: what names an algorithm when CUPTI cannot. */
enum { CUBLASLT_ALGO_CONFIG_ID = 0, CUBLASLT_ALGO_CONFIG_TILE_ID = 1, CUBLASLT_ALGO_CONFIG_SPLITK_NUM = 2,
       CUBLASLT_ALGO_CONFIG_STAGES_ID = 6, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID = 8 };

/* Every entry point we call; filled by cuda_load(). */
typedef struct {
	CUresult (*Init)(unsigned flags);
	CUresult (*DriverGetVersion)(int *v);
	CUresult (*DeviceGet)(CUdevice *d, int ordinal);
	CUresult (*DeviceGetCount)(int *n);
	CUresult (*DeviceGetName)(char *name, int len, CUdevice d);
	CUresult (*DeviceGetPCIBusId)(char *bus, int len, CUdevice d); /* optional: NVML finds the device by it */
	CUresult (*DeviceGetAttribute)(int *v, int attr, CUdevice d);
	CUresult (*DeviceTotalMem)(size_t *bytes, CUdevice d);
	CUresult (*DevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice d);
	CUresult (*DevicePrimaryCtxRelease)(CUdevice d);
	CUresult (*CtxSetCurrent)(CUcontext ctx);
	CUresult (*CtxSynchronize)(void);
	CUresult (*ModuleLoadDataEx)(CUmodule *m, const void *image, unsigned n, int *opts, void **vals);
	CUresult (*ModuleUnload)(CUmodule m);
	CUresult (*ModuleGetFunction)(CUfunction *f, CUmodule m, const char *name);
	CUresult (*FuncGetAttribute)(int *v, int attr, CUfunction f);
	CUresult (*FuncSetAttribute)(CUfunction f, int attr, int v);
	CUresult (*LaunchKernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
				 unsigned bz, unsigned smem, CUstream s, void **params, void **extra);
	CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *n, CUfunction f, int threads, size_t smem);
	/* Cluster launches (CUDA 11.8+ drivers); NULL when the driver lacks them:
	 * only a cluster run is then refused. */
	CUresult (*LaunchKernelEx)(const CUlaunchConfig *config, CUfunction f, void **params, void **extra);
	CUresult (*OccupancyMaxActiveClusters)(int *n, CUfunction f, const CUlaunchConfig *config);
	CUresult (*MemAlloc)(CUdeviceptr *p, size_t bytes);
	CUresult (*MemFree)(CUdeviceptr p);
	CUresult (*MemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
	CUresult (*MemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
	CUresult (*MemsetD32)(CUdeviceptr dst, unsigned v, size_t n);
	CUresult (*MemsetD16)(CUdeviceptr dst, unsigned short v, size_t n);
	CUresult (*EventCreate)(CUevent *e, unsigned flags);
	CUresult (*EventDestroy)(CUevent e);
	CUresult (*EventRecord)(CUevent e, CUstream s);
	CUresult (*EventSynchronize)(CUevent e);
	CUresult (*EventElapsedTime)(float *ms, CUevent a, CUevent b);
	CUresult (*TensorMapEncodeTiled)(CUtensorMap *map, int dtype, unsigned rank, void *addr,
					 const unsigned long long *dims, const unsigned long long *strides,
					 const unsigned *box, const unsigned *elem_strides, int interleave, int swizzle,
					 int l2_promotion, int oob_fill);
	/* The JIT as a linker, for the SASS view (gpu/jitcubin.c); NULL when the
	 * driver lacks them: only the SASS view is then refused. */
	CUresult (*LinkCreate)(unsigned n, int *opts, void **vals, CUlinkState *st);
	CUresult (*LinkAddData)(CUlinkState st, int type, void *data, size_t size, const char *name, unsigned n,
				int *opts, void **vals);
	CUresult (*LinkComplete)(CUlinkState st, void **cubin, size_t *size);
	CUresult (*LinkDestroy)(CUlinkState st);
	CUresult (*GetErrorName)(CUresult r, const char **s);
	CUresult (*GetErrorString)(CUresult r, const char **s);

	/* cuBLAS; NULL when no libcublas was found (verification then says why). */
	int (*blasCreate)(cublasHandle_t *h);
	int (*blasDestroy)(cublasHandle_t h);
	int (*blasSgemm)(cublasHandle_t h, int ta, int tb, int m, int n, int k, const float *alpha, const float *A,
			 int lda, const float *B, int ldb, const float *beta, float *C, int ldc);
	int (*blasGemmEx)(cublasHandle_t h, int ta, int tb, int m, int n, int k, const void *alpha, const void *A,
			  int at, int lda, const void *B, int bt, int ldb, const void *beta, void *C, int ct, int ldc,
			  int compute, int algo);

	/* cuBLASLt, the FP8 reference (gpu/lt.c); NULL when no libcublasLt was
	 * found: only FP8 runs are then unchecked, and lt_why says so. */
	int (*ltCreate)(cublasLtHandle_t *h);
	int (*ltMatmulDescCreate)(cublasLtMatmulDesc_t *d, int compute, int scale_type);
	int (*ltMatmulDescDestroy)(cublasLtMatmulDesc_t d);
	int (*ltMatmulDescSetAttribute)(cublasLtMatmulDesc_t d, int attr, const void *buf, size_t size);
	int (*ltMatrixLayoutCreate)(cublasLtMatrixLayout_t *l, int type, unsigned long long rows,
				    unsigned long long cols, long long ld);
	int (*ltMatrixLayoutDestroy)(cublasLtMatrixLayout_t l);
	int (*ltMatmulPreferenceCreate)(cublasLtMatmulPreference_t *p);
	int (*ltMatmulPreferenceDestroy)(cublasLtMatmulPreference_t p);
	int (*ltMatmulPreferenceSetAttribute)(cublasLtMatmulPreference_t p, int attr, const void *buf, size_t size);
	int (*ltMatmulAlgoGetHeuristic)(cublasLtHandle_t h, cublasLtMatmulDesc_t d, cublasLtMatrixLayout_t a,
					cublasLtMatrixLayout_t b, cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t dd,
					cublasLtMatmulPreference_t p, int requested, cublasLtMatmulHeuristicResult_t *out,
					int *returned);
	int (*ltMatmul)(cublasLtHandle_t h, cublasLtMatmulDesc_t d, const void *alpha, const void *A,
			cublasLtMatrixLayout_t a, const void *B, cublasLtMatrixLayout_t b, const void *beta, const void *C,
			cublasLtMatrixLayout_t c, void *D, cublasLtMatrixLayout_t dd, const cublasLtMatmulAlgo_t *algo,
			void *workspace, size_t workspace_size, CUstream stream);
	/* optional: an algorithm's configuration (its id, tile, stages), to name it */
	int (*ltMatmulAlgoConfigGetAttribute)(const cublasLtMatmulAlgo_t *algo, int attr, void *buf, size_t size,
					      size_t *written);

	CUdevice dev;
	CUcontext ctx;
	cublasHandle_t blas;
	cublasLtHandle_t lt;
	int driver_version;
	char blas_path[256];
	char lt_path[256];
	char lt_why[160];         /* why lt is NULL: "cuBLASLt not found (libcublasLt.so.13/.12): FP8 runs are not checked" */
} cuda_api;

/* Loads libcuda.so.1, resolves every entry point through cuGetProcAddress,
 * picks device 0 and makes its primary context current, then looks for
 * cuBLAS. Returns the API, or NULL with a one-line reason in why. Idempotent. */
const cuda_api *cuda_load(char *why, int whylen);

/* Whether cuda_load has run in this process (CUDA read its environment then, CUDA_CACHE_PATH too). */
int cuda_loaded(void);

/* "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered". */
const char *cuda_error(CUresult r);

/* Fills a gpu_spec from the device's attributes (live). */
int cuda_device_spec(gpu_spec *g);

#endif
