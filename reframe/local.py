# reframe/local.py: a ReFrame site configuration for aller's local Slurm
# cluster (cluster/, make cluster-up). A site copies the partition block:
# its scheduler ('slurm', or 'squeue' without accounting), its launcher
# ('srun'), its access options (-p, -A) and the environments whose MPI aller
# was built with. The cluster's task prolog sets Open MPI's interfaces, and its
# MpiDefault is pmix, so srun needs nothing more here.
site_configuration = {
    'systems': [
        {
            'name': 'aller-local',
            'descr': "aller's local Slurm cluster (cluster/)",
            'hostnames': ['.*'],
            'partitions': [
                {
                    'name': 'debug',
                    'descr': 'the local nodes n1..n4',
                    'scheduler': 'squeue',
                    'launcher': 'srun',
                    'access': ['--partition=debug'],
                    'environs': ['builtin'],
                    'max_jobs': 4,
                },
            ],
        },
    ],
    'environments': [
        {'name': 'builtin', 'cc': 'mpicc', 'cxx': '', 'ftn': ''},
    ],
    'logging': [
        {
            'handlers_perflog': [
                {
                    # one line per check: its name, result and every
                    # performance variable as name=value|unit|reference|lower|upper
                    'type': 'filelog',
                    'prefix': '%(check_system)s/%(check_partition)s',
                    'level': 'info',
                    'format': ('%(check_job_completion_time)s|%(check_display_name)s|'
                               '%(check_result)s|%(check_perfvalues)s'),
                    'format_perfvars': ('%(check_perf_var)s=%(check_perf_value)s|'
                                        '%(check_perf_unit)s|%(check_perf_ref)s|'
                                        '%(check_perf_lower_thres)s|%(check_perf_upper_thres)s|'),
                    'append': True,
                },
            ],
        },
    ],
}
