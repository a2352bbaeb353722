#%Module1.0
## aller @VERSION@: MPI all-to-all campaigns on Slurm (Environment Modules; written by make install)
module-whatis "aller @VERSION@: MPI all-to-all bandwidth on all subcommunicators, and Slurm campaigns of it"
proc ModulesHelp { } {
	puts stderr "aller @VERSION@: aller(1), collect(1), aller-campaign(1) and its wrappers"
	puts stderr "aller-status, aller-plots, aller-compare, aller-report."
}
set prefix "@PREFIX@"
prepend-path PATH $prefix/bin
prepend-path MANPATH $prefix/share/man
setenv ALLER_SHARE $prefix/share/aller
