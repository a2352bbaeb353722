/* buffers_nocuda.c: a build without CUDA has no device back end. */
#include "buffers.h"

const struct buffer_ops *buffers_cuda_ops(void)
{
	return NULL;
}
