# packaging/spack/aller/package.py: aller for Spack (a MakefilePackage, as
# Spack's osu-micro-benchmarks and nccl-tests recipes are). Put this
# directory in a Spack repository (spack repo create; copy packages/aller),
# then: spack install aller, or aller +cuda cuda_arch=90 +nccl.
# `git` is where a site keeps this repository (its own mirror).
from spack.package import *


class Aller(MakefilePackage, CudaPackage):
    """MPI all-to-all on every subcommunicator of a partition of
    MPI_COMM_WORLD at once, every element verified, with a Slurm campaign
    toolkit that merges, plots and judges the results (limits, findings,
    suspects, trend)."""

    homepage = "https://example.invalid/aller"
    git = "https://example.invalid/aller.git"

    version("1.1.0", tag="v1.1.0")

    variant("nccl", default=False, description="--transport=nccl: NCCL's all-to-all on device buffers")
    conflicts("+nccl", when="~cuda", msg="NCCL moves device memory: +nccl needs +cuda")

    depends_on("gmake", type="build")
    depends_on("mpi")
    depends_on("nccl", when="+nccl")
    depends_on("gnuplot", type="run")   # the toolkit's plots

    sanity_check_is_file = ["bin/aller", "bin/collect", "bin/aller-campaign", "bin/aller-plots",
                            "share/aller/jobs/aller.sbatch", "share/man/man1/aller.1"]
    sanity_check_is_dir = ["share/aller/campaigns", "share/aller/plots", "share/aller/reframe",
                           "share/modulefiles/aller"]

    def knobs(self):
        """The Makefile's variables, the same for build and install (a
        changed one rebuilds)."""
        spec = self.spec
        args = [f"MPICC={spec['mpi'].mpicc}", f"CC={self.compiler.cc}"]
        if spec.satisfies("+cuda"):
            args += ["CUDA=1", f"CUDA_HOME={spec['cuda'].prefix}"]
            archs = [a for a in spec.variants["cuda_arch"].value if a != "none"]
            if archs:
                args.append("CUDA_ARCHS=" + " ".join(archs))
        if spec.satisfies("+nccl"):
            args += ["NCCL=1", f"NCCL_HOME={spec['nccl'].prefix}"]
        return args

    @property
    def build_targets(self):
        return self.knobs() + ["all"]

    @property
    def install_targets(self):
        return self.knobs() + [f"PREFIX={self.prefix}", "install"]
