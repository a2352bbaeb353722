/* Unit tests: GPU assignment, device lines and the CUDA-awareness decision (gpu.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buffers/gpu.h"
#include "buffers/gpuinfo.h"
#include "world/hostmap.h"

/* seen_of(s, "A B C D"): one rank's visible ids. */
static void seen_of(struct gpu_seen *s, const char *ids)
{
	char buf[256], *tok;

	memset(s, 0, sizeof(*s));
	snprintf(buf, sizeof(buf), "%s", ids);
	for (tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
		snprintf(s->id[s->n++], GPU_ID_MAX, "%s", tok);
}

static const char *picked(const struct gpu_seen *s, int pick)
{
	return pick < 0 ? "-" : s->id[pick];
}

/* --gpu-bind=closest, tasks alternating sockets: each socket's ranks see its four GPUs. */
static void alternating_sockets_take_one_gpu_each(void **state)
{
	struct gpu_seen seen[8];
	int pick[8];
	const char *want[8] = { "A", "E", "B", "F", "C", "G", "D", "H" };
	(void)state;
	for (int r = 0; r < 8; r++)
		seen_of(&seen[r], r % 2 ? "E F G H" : "A B C D");
	assert_int_equal(gpu_assign(8, seen, pick), 0);
	for (int r = 0; r < 8; r++)
		assert_string_equal(picked(&seen[r], pick[r]), want[r]);
}

/* The old rule (local rank modulo visible) would put ranks 0 and 2 on one GPU here. */
static void every_rank_sees_all_or_its_own(void **state)
{
	struct gpu_seen seen[4];
	int pick[4];
	(void)state;
	for (int r = 0; r < 4; r++)
		seen_of(&seen[r], "A B C D");
	assert_int_equal(gpu_assign(4, seen, pick), 0);
	for (int r = 0; r < 4; r++)
		assert_int_equal(pick[r], r);
	/* --gpu-bind=single:1: each sees one, its own */
	seen_of(&seen[0], "A");
	seen_of(&seen[1], "B");
	seen_of(&seen[2], "C");
	seen_of(&seen[3], "D");
	assert_int_equal(gpu_assign(4, seen, pick), 0);
	for (int r = 0; r < 4; r++)
		assert_int_equal(pick[r], 0);
	/* the same set in another order is one group, in its first rank's order */
	seen_of(&seen[0], "A B");
	seen_of(&seen[1], "B A");
	assert_int_equal(gpu_assign(2, seen, pick), 0);
	assert_string_equal(picked(&seen[0], pick[0]), "A");
	assert_string_equal(picked(&seen[1], pick[1]), "B");
	assert_int_equal(pick[1], 0);   /* an index into its own list */
}

static void fewer_gpus_than_ranks_and_duplicates_are_counted(void **state)
{
	struct gpu_seen seen[6];
	int pick[6];
	(void)state;
	for (int r = 0; r < 6; r++)
		seen_of(&seen[r], "A B");
	assert_int_equal(gpu_assign(6, seen, pick), 4);   /* A B A B A B: four repeat one */
	/* one bound to A alone, others seeing A and B: the second group's first takes A too */
	seen_of(&seen[0], "A");
	seen_of(&seen[1], "A B");
	assert_int_equal(gpu_assign(2, seen, pick), 1);
	/* none visible */
	seen_of(&seen[0], "");
	assert_int_equal(gpu_assign(1, seen, pick), 0);
	assert_int_equal(pick[0], -1);
}

static void device_lines_are_compact(void **state)
{
	const long ranks[5] = { 0, 1, 2, 3, 8 };
	const struct hostmap_device ids[5] = { { "GPU-a", "name=A" }, { "GPU-b", "" }, { "GPU-a", "" },
					      { "GPU-c", "name=C" }, { "GPU-a", "" } };
	struct strbuf b;
	char *s;
	(void)state;
	strbuf_init(&b);
	hostmap_devices(&b, "n1", 5, ranks, ids);
	s = strbuf_detach(&b);
	assert_string_equal(s, "n1 GPU-a 0,2,8 (shared) name=A\nn1 GPU-b 1\nn1 GPU-c 3 name=C\n");
	free(s);
}

static void cuda_awareness_decision(void **state)
{
	char how[512];
	const char *q = "MPIX_Query_cuda_support()";
	(void)state;
	assert_int_equal(gpu_mpi_takes_cuda(q, GPU_QUERY_YES, GPU_AWARE_AUTO, how, sizeof(how)), 1);
	assert_string_equal(how, "yes (MPIX_Query_cuda_support() answers 1)");
	assert_int_equal(gpu_mpi_takes_cuda(q, GPU_QUERY_NO, GPU_AWARE_AUTO, how, sizeof(how)), 0);
	assert_non_null(strstr(how, "not CUDA-aware (MPIX_Query_cuda_support() answers 0)"));
	assert_int_equal(gpu_mpi_takes_cuda(NULL, GPU_QUERY_NONE, GPU_AWARE_AUTO, how, sizeof(how)), 0);
	assert_non_null(strstr(how, "cannot tell whether the MPI library is CUDA-aware"));
	assert_non_null(strstr(how, "--cuda-aware=yes"));
	/* the user's word, recorded as such */
	assert_int_equal(gpu_mpi_takes_cuda(NULL, GPU_QUERY_NONE, GPU_AWARE_YES, how, sizeof(how)), 1);
	assert_string_equal(how, "yes (--cuda-aware=yes, not asked of the library)");
	assert_int_equal(gpu_mpi_takes_cuda(q, GPU_QUERY_NO, GPU_AWARE_YES, how, sizeof(how)), 1);
	assert_non_null(strstr(how, "answers 0"));
}

/*
 * A sysfs tree: two host bridges (NUMA 0 and 1); the GPU at 0000:19:00.0
 * behind a switch (0000:18:00.0) on pci0000:17, mlx5_0 behind the same
 * switch (0000:18:01.0), eth0 on the other host bridge, lo virtual.
 */
static const char *make_sysfs(char *dir, size_t len)
{
	char cmd[2048];

	snprintf(dir, len, "/tmp/aller-sysfs-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "cd %s && A=devices/pci0000:17/0000:17:00.0/0000:18:00.0 && "
		 "B=devices/pci0000:17/0000:17:00.0/0000:18:01.0 && C=devices/pci0000:80/0000:80:01.0 && "
		 "mkdir -p $A/0000:19:00.0 $B/0000:1a:00.0 $C/0000:81:00.0 devices/virtual/net/lo "
		 "bus/pci/devices class/infiniband/mlx5_0 class/net/eth0 class/net/lo && "
		 "echo 0 > $A/0000:19:00.0/numa_node && echo 0 > $B/0000:1a:00.0/numa_node && "
		 "echo 1 > $C/0000:81:00.0/numa_node && "
		 "ln -s ../../../$A/0000:19:00.0 bus/pci/devices/0000:19:00.0 && "
		 "ln -s ../../../$C/0000:81:00.0 bus/pci/devices/0000:81:00.0 && "
		 "ln -s ../../../$B/0000:1a:00.0 class/infiniband/mlx5_0/device && "
		 "ln -s ../../../$C/0000:81:00.0 class/net/eth0/device", dir);
	assert_int_equal(system(cmd), 0);
	return dir;
}

static void nearest_nic_by_pcie_path(void **state)
{
	char dir[64], cmd[128], nic[64], how[32];
	(void)state;
	make_sysfs(dir, sizeof(dir));
	/* behind one switch */
	assert_int_equal(gpuinfo_nearest_nic(dir, "0000:19:00.0", nic, sizeof(nic), how, sizeof(how)), 0);
	assert_string_equal(nic, "mlx5_0");
	assert_string_equal(how, "PIX");
	assert_int_equal(gpuinfo_numa(dir, "0000:19:00.0"), 0);
	/* a GPU on the other host bridge: eth0 shares its host bridge */
	assert_int_equal(gpuinfo_nearest_nic(dir, "0000:81:00.0", nic, sizeof(nic), how, sizeof(how)), 0);
	assert_string_equal(nic, "eth0");
	/* without mlx5_0 the GPU's nearest is across the NUMA nodes */
	snprintf(cmd, sizeof(cmd), "rm -r %s/class/infiniband", dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(gpuinfo_nearest_nic(dir, "0000:19:00.0", nic, sizeof(nic), how, sizeof(how)), 0);
	assert_string_equal(nic, "eth0");
	assert_string_equal(how, "SYS");
	/* no such GPU, no NIC */
	assert_int_equal(gpuinfo_nearest_nic(dir, "0000:99:00.0", nic, sizeof(nic), how, sizeof(how)), -1);
	assert_string_equal(nic, "");
	assert_int_equal(gpuinfo_numa(dir, "0000:99:00.0"), -1);
	snprintf(cmd, sizeof(cmd), "rm -r %s/class/net/eth0", dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(gpuinfo_nearest_nic(dir, "0000:19:00.0", nic, sizeof(nic), how, sizeof(how)), -1);
	snprintf(cmd, sizeof(cmd), "rm -r %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void gpu_description_words(void **state)
{
	struct gpu_facts f = { .name = "NVIDIA H200", .memory = 150.0 * 1024 * 1024 * 1024,
			       .sm_mhz = 1980, .mem_mhz = 3201, .pci = "0000:19:00.0", .numa = 0,
			       .nic = "mlx5_0", .nic_how = "PIX", .nvlinks = 18, .gpus = 8 };
	char s[GPU_DESC_MAX];
	(void)state;
	gpuinfo_describe(&f, s, sizeof(s));
	assert_string_equal(s, "name=NVIDIA_H200 memory=150.0GiB sm_clock=1980MHz mem_clock=3201MHz "
			       "pci=0000:19:00.0 numa=0 nic=mlx5_0(PIX) link=nvlink:18");
	memset(&f, 0, sizeof(f));
	f.numa = -1;
	f.nvlinks = -1;
	gpuinfo_describe(&f, s, sizeof(s));
	assert_string_equal(s, "name=unknown memory=unknown sm_clock=unknown mem_clock=unknown "
			       "pci=unknown numa=-1 nic=none link=unknown(no_nvml)");
	f.nvlinks = 0;
	f.gpus = 1;
	gpuinfo_describe(&f, s, sizeof(s));
	assert_non_null(strstr(s, "link=none(one_gpu)"));
	f.gpus = 2;
	gpuinfo_describe(&f, s, sizeof(s));
	assert_non_null(strstr(s, "link=pcie"));
	/* NVML's links at their architecture's rate: an H100's 18 NVLink 4 links, 450 GB/s each way */
	f.nvlinks = 18;
	f.nvlink_gbs = gpuinfo_nvlink_gbs(9, 0, 18);
	gpuinfo_describe(&f, s, sizeof(s));
	assert_non_null(strstr(s, " link=nvlink:18 link_GBs=450"));
	assert_true(gpuinfo_nvlink_gbs(8, 0, 12) == 300 && gpuinfo_nvlink_gbs(10, 0, 18) == 900);
	assert_true(gpuinfo_nvlink_gbs(6, 0, 4) == 80 && gpuinfo_nvlink_gbs(7, 0, 6) == 150);
	assert_true(gpuinfo_nvlink_gbs(8, 9, 4) == 0 && gpuinfo_nvlink_gbs(9, 0, 0) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alternating_sockets_take_one_gpu_each),
		cmocka_unit_test(every_rank_sees_all_or_its_own),
		cmocka_unit_test(fewer_gpus_than_ranks_and_duplicates_are_counted),
		cmocka_unit_test(device_lines_are_compact),
		cmocka_unit_test(cuda_awareness_decision),
		cmocka_unit_test(nearest_nic_by_pcie_path),
		cmocka_unit_test(gpu_description_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
