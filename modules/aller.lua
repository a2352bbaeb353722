-- aller @VERSION@: MPI all-to-all campaigns on Slurm (Lmod; written by make install)
whatis("Name: aller")
whatis("Version: @VERSION@")
whatis("Description: MPI all-to-all bandwidth on all subcommunicators, and Slurm campaigns of it")
help([[
aller @VERSION@: aller(1), collect(1), aller-campaign(1) and its wrappers
aller-status, aller-plots, aller-compare, aller-report. Load the MPI library
aller was built with as well, when it is a module.
]])
local prefix = "@PREFIX@"
prepend_path("PATH", pathJoin(prefix, "bin"))
prepend_path("MANPATH", pathJoin(prefix, "share/man"))
setenv("ALLER_SHARE", pathJoin(prefix, "share/aller"))
