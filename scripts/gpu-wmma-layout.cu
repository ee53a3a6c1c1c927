// gpu-wmma-layout: where the GPU puts each element of a WMMA fragment, which the PTX ISA leaves
// unspecified ("the mapping of matrix elements into fragments"). For every shape, element type,
// matrix and layout the emulator runs (docs/emulator.md, "wmma"), one warp loads a matrix whose
// elements are their own row numbers, then one whose elements are their column numbers, and writes
// each lane's fragment.x[i]; the output is one line a lane and element:
//     which shape type layout lane element row col
// (which: a, b or c, the accumulator; layout: row or col). tests/test_emu_wmma.c holds the
// emulator's emu_wmma_frag_pos to the table this printed (tests/wmma-layout-sm90.tsv).
#define PROG "gpu-wmma-layout"
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include "gpu_check.h"
using namespace nvcuda;

template <typename S> static S from_int(int v) { return (S)v; }
template <> __nv_bfloat16 from_int<__nv_bfloat16>(int v) { return __float2bfloat16((float)v); }
template <> half from_int<half>(int v) { return __float2half((float)v); }

template <typename Frag> __device__ void dump(const Frag &f, float *out)
{
	for (int i = 0; i < f.num_elements; i++)
		out[threadIdx.x * f.num_elements + i] = (float)f.x[i];
}

template <typename Use, int M, int N, int K, typename T, typename L, typename S>
__global__ void load_ab(const S *mat, int ldm, float *out)
{
	wmma::fragment<Use, M, N, K, T, L> f;
	wmma::load_matrix_sync(f, mat, ldm);
	dump(f, out);
}

template <int M, int N, int K, typename S>
__global__ void load_c(const S *mat, int ldm, int col_major, float *out)
{
	wmma::fragment<wmma::accumulator, M, N, K, S> f;
	wmma::load_matrix_sync(f, mat, ldm, col_major ? wmma::mem_col_major : wmma::mem_row_major);
	dump(f, out);
}

// One matrix of rows x cols, each element its row (pass 0) or its column (pass 1), stored in
// the layout; kernel(mat, ldm, out) loads it; prints the table's lines.
template <typename S, typename F>
static void probe(const char *which, const char *shape, const char *type, int rows, int cols, int col_major,
		  int nel, F kernel)
{
	int n = rows * cols, ldm = col_major ? rows : cols;
	S *h = new S[n], *d;
	float *out, got[2][32 * 64];
	CHECK(cudaMalloc(&d, n * sizeof(S)));
	CHECK(cudaMalloc(&out, 32 * nel * sizeof(float)));
	for (int pass = 0; pass < 2; pass++) {
		for (int r = 0; r < rows; r++)
			for (int c = 0; c < cols; c++)
				h[col_major ? c * rows + r : r * cols + c] = from_int<S>(pass ? c : r);
		CHECK(cudaMemcpy(d, h, n * sizeof(S), cudaMemcpyHostToDevice));
		kernel(d, ldm, out);
		CHECK(cudaGetLastError());
		CHECK(cudaMemcpy(got[pass], out, 32 * nel * sizeof(float), cudaMemcpyDeviceToHost));
	}
	for (int l = 0; l < 32; l++)
		for (int i = 0; i < nel; i++)
			printf("%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\n", which, shape, type, col_major ? "col" : "row", l, i,
			       (int)got[0][l * nel + i], (int)got[1][l * nel + i]);
	CHECK(cudaFree(d));
	CHECK(cudaFree(out));
	delete[] h;
}

template <int M, int N, int K, typename T, typename S>
static void shape_ab(const char *shape, const char *type)
{
	using Arow = wmma::fragment<wmma::matrix_a, M, N, K, T, wmma::row_major>;
	probe<S>("a", shape, type, M, K, 0, Arow().num_elements, [](S *d, int ldm, float *o) {
		load_ab<wmma::matrix_a, M, N, K, T, wmma::row_major><<<1, 32>>>(d, ldm, o); });
	probe<S>("a", shape, type, M, K, 1, Arow().num_elements, [](S *d, int ldm, float *o) {
		load_ab<wmma::matrix_a, M, N, K, T, wmma::col_major><<<1, 32>>>(d, ldm, o); });
	using Brow = wmma::fragment<wmma::matrix_b, M, N, K, T, wmma::row_major>;
	probe<S>("b", shape, type, K, N, 0, Brow().num_elements, [](S *d, int ldm, float *o) {
		load_ab<wmma::matrix_b, M, N, K, T, wmma::row_major><<<1, 32>>>(d, ldm, o); });
	probe<S>("b", shape, type, K, N, 1, Brow().num_elements, [](S *d, int ldm, float *o) {
		load_ab<wmma::matrix_b, M, N, K, T, wmma::col_major><<<1, 32>>>(d, ldm, o); });
}

template <int M, int N, int K, typename S>
static void shape_c(const char *shape, const char *type)
{
	int nel = wmma::fragment<wmma::accumulator, M, N, K, S>().num_elements;
	for (int cm = 0; cm < 2; cm++)
		probe<S>("c", shape, type, M, N, cm, nel, [cm](S *d, int ldm, float *o) {
			load_c<M, N, K, S><<<1, 32>>>(d, ldm, cm, o); });
}

int main()
{
	printf("which\tshape\ttype\tlayout\tlane\telement\trow\tcol\n");
	shape_ab<16, 16, 16, half, half>("m16n16k16", "f16");
	shape_ab<32, 8, 16, half, half>("m32n8k16", "f16");
	shape_ab<8, 32, 16, half, half>("m8n32k16", "f16");
	shape_ab<16, 16, 16, __nv_bfloat16, __nv_bfloat16>("m16n16k16", "bf16");
	shape_ab<32, 8, 16, __nv_bfloat16, __nv_bfloat16>("m32n8k16", "bf16");
	shape_ab<8, 32, 16, __nv_bfloat16, __nv_bfloat16>("m8n32k16", "bf16");
	shape_ab<16, 16, 16, signed char, signed char>("m16n16k16", "s8");
	shape_ab<32, 8, 16, signed char, signed char>("m32n8k16", "s8");
	shape_ab<8, 32, 16, signed char, signed char>("m8n32k16", "s8");
	shape_ab<16, 16, 16, unsigned char, unsigned char>("m16n16k16", "u8");
	shape_ab<16, 16, 8, wmma::precision::tf32, float>("m16n16k8", "tf32");
	shape_c<16, 16, 16, float>("m16n16k16", "f32");
	shape_c<32, 8, 16, float>("m32n8k16", "f32");
	shape_c<8, 32, 16, float>("m8n32k16", "f32");
	shape_c<16, 16, 16, half>("m16n16k16", "f16");
	shape_c<32, 8, 16, half>("m32n8k16", "f16");
	shape_c<8, 32, 16, half>("m8n32k16", "f16");
	shape_c<16, 16, 16, int>("m16n16k16", "s32");
	shape_c<16, 16, 8, float>("m16n16k8", "f32");
	CHECK(cudaDeviceSynchronize());
	return 0;
}
