# reframe/aller.py: aller as a ReFrame test library (ReFrame 4.x).
#
#   aller_alltoall        runs the aller on PATH (or -S aller=/path/to/aller)
#   aller_alltoall_build  builds aller from this source tree with make first
#                         (a fixture, once per environment), then runs it
#
# Each runs `aller --json=aller.json` through the partition's scheduler and
# launcher, parameterised by node count, mode and placement. Sanity: aller's
# exit status (echoed after the launcher), its '# Done' line, the JSON's end
# record and at least one verified row (a row is printed only once every
# received element of its calls was checked). Performance variables, read
# from the JSON by name at the world level's largest size: busbw (GB/s), eff
# (the row against its limit), tmed (s), and interference (the largest
# concurrent/alone factor, where --isolate measured one). References: fill
# `reference` per system:partition in a derived test or a site copy, or set
# -S busbw_ref=GBPS (fails below busbw_ref x (1 - busbw_tolerance)).
# -S min_busbw=GBPS[@SIZE[+]] passes aller's own floor: a row below it fails
# the run (exit 1), and so the check, with aller's line as the reason.
import json
import os

import reframe as rfm
import reframe.utility.sanity as sn
import reframe.utility.typecheck as typ
from reframe.core.builtins import (fixture, parameter, performance_function, run_after,
                                   run_before, sanity_function, variable)
from reframe.core.exceptions import SanityError

HERE = os.path.dirname(os.path.abspath(__file__))


def read_records(path):
    '''aller's --json file: one record per line.'''
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def world_largest(records):
    '''The world level's row at its largest count (its first algorithm and split).'''
    rows = [r for r in records if r.get('record') == 'row' and r.get('level') == 0]
    if not rows:
        return None
    first = (rows[0]['algo'], rows[0]['split'])
    rows = [r for r in rows if (r['algo'], r['split']) == first]
    return max(rows, key=lambda r: r['count'])


def largest_interference(records):
    '''The largest interference of each level's largest count, None where unmeasured.'''
    rows = [r for r in records if r.get('record') == 'row']
    best = {}
    for r in rows:
        if r['level'] not in best or r['count'] > best[r['level']]['count']:
            best[r['level']] = r
    found = [r['interference'] for r in best.values() if r.get('interference') is not None]
    return max(found) if found else None


# Every variable recorded, none bounded: what a system without references gets.
RECORDED = {
    'busbw': (0, None, None, 'GB/s'),
    'eff': (0, None, None, ''),
    'tmed': (0, None, None, 's'),
    'interference': (0, None, None, ''),
}


class aller_check(rfm.RunOnlyRegressionTest):
    '''What both checks share: the run, its sanity and its numbers.'''
    nodes = parameter([1, 2, 4])
    mode = parameter(['contiguous', 'strided'])
    placement = parameter(['block'])

    #: aller to run: a name on PATH or a path
    aller = variable(str, value='aller')
    #: per-task buffer, in longs (8 bytes); the largest size per peer is this / world
    longs = variable(int, value=4096)
    #: timed calls per size
    iters = variable(int, value=5)
    tasks_per_node = variable(int, value=2)
    #: also time communicator 0 alone (--isolate): the interference variable
    isolate = variable(bool, value=True)
    #: aller's floor, '--min-busbw=' without the option name; '' none
    min_busbw = variable(str, value='')
    #: a site's busbw (GB/s) at the largest size; 0: no reference
    busbw_ref = variable(float, value=0.0)
    busbw_tolerance = variable(float, value=0.1)

    valid_systems = ['*']
    valid_prog_environs = ['*']
    time_limit = '10m'
    json_file = 'aller.json'
    keep_files = [json_file]   # beside the job's output, for whoever reads the numbers again
    tags = {'aller', 'alltoall', 'network'}
    maintainers = ['aller']
    #: per system:partition, as ReFrame's: (value, lower, upper, unit); the
    #: '*' entries only record the values
    reference = {'*': RECORDED}

    @run_before('run')
    def set_command(self):
        self.num_tasks = self.nodes * self.tasks_per_node
        self.num_tasks_per_node = self.tasks_per_node
        self.executable = self.aller
        opts = [f'--json={self.json_file}', f'--placement={self.placement}']
        if self.isolate:
            opts.append('--isolate')
        if self.min_busbw:
            opts.append(f'--min-busbw={self.min_busbw}')
        self.executable_opts = opts + ['s' if self.mode == 'strided' else 'c',
                                       str(self.iters), str(self.longs)]
        # the launcher's status, whatever the scheduler reports
        self.postrun_cmds = ['echo "aller-exit: $?"']

    def records(self):
        """aller.json's records, read once (sanity, then every performance variable)."""
        path = os.path.join(self.stagedir, self.json_file)
        cached = getattr(self, '_records', None)
        if cached is None or cached[0] != path:   # a retry stages elsewhere
            self._records = cached = (path, read_records(path))
        return cached[1]

    @sanity_function
    def aller_passed(self):
        with open(os.path.join(self.stagedir, sn.evaluate(self.stdout))) as f:
            out = f.read()
        status = [line.split(':', 1)[1].strip() for line in out.splitlines()
                  if line.startswith('aller-exit:')]
        if status != ['0']:
            why = ''
            path = os.path.join(self.stagedir, sn.evaluate(self.stderr))
            if os.path.exists(path):
                with open(path) as f:
                    lines = [ln for ln in f.read().splitlines() if ln.startswith('aller:')]
                why = f': {lines[0]}' if lines else ''
            floors = [ln for ln in out.splitlines() if ln.startswith('# floor_failed:')]
            if floors:
                why += f' ({floors[0][2:]})'
            raise SanityError(f'aller exited with {status[0] if status else "nothing"}{why}')
        if '# Done' not in out.splitlines():
            raise SanityError("aller's output has no '# Done' line")
        recs = self.records()
        if not recs or recs[-1].get('record') != 'end' or not recs[-1].get('done'):
            raise SanityError(f'{self.json_file} does not end in a done record')
        if world_largest(recs) is None:
            raise SanityError(f'{self.json_file} has no row of the world level')
        return True

    @run_before('performance')
    def set_perf_variables(self):
        if self.busbw_ref > 0:   # every system's, over what the class or a site says
            ref = (self.busbw_ref, -self.busbw_tolerance, None, 'GB/s')
            self.reference = {'*': {**RECORDED, 'busbw': ref}}
        self.perf_variables = {'busbw': self.busbw(), 'tmed': self.tmed()}
        recs = self.records()
        if world_largest(recs).get('eff') is not None:
            self.perf_variables['eff'] = self.eff()
        if largest_interference(recs) is not None:
            self.perf_variables['interference'] = self.interference()

    @performance_function('GB/s')
    def busbw(self):
        return world_largest(self.records())['busbw_GBs']

    @performance_function('')
    def eff(self):
        return world_largest(self.records())['eff']

    @performance_function('s')
    def tmed(self):
        return world_largest(self.records())['tmed_s']

    @performance_function('')
    def interference(self):
        return largest_interference(self.records())


@rfm.simple_test
class aller_alltoall(aller_check):
    '''aller as installed (module load aller, Spack, EasyBuild) or -S aller=PATH.'''


class aller_make(rfm.CompileOnlyRegressionTest):
    '''aller built with make from a source tree (this one by default).'''
    #: the source tree: its Makefile's directory
    source = variable(str, value=os.path.dirname(HERE))
    #: make's arguments beyond B=, e.g. ['CUDA=1', 'NCCL=1']
    make_opts = variable(typ.List[str], value=[])
    build_system = 'CustomBuild'
    sourcesdir = None
    valid_systems = ['*']
    valid_prog_environs = ['*']

    @run_before('compile')
    def set_build(self):
        args = ' '.join(self.make_opts)
        self.build_system.commands = [f'make -C {self.source} B={self.stagedir}/build {args} all']

    @sanity_function
    def built(self):
        if not os.access(os.path.join(self.stagedir, 'build', 'bin', 'aller'), os.X_OK):
            raise SanityError('make built no build/bin/aller')
        return True


@rfm.simple_test
class aller_alltoall_build(aller_check):
    '''aller built from source first (once per environment), then run.'''
    nodes = parameter([1])
    build = fixture(aller_make, scope='environment')

    @run_after('setup')
    def use_build(self):
        self.aller = os.path.join(self.build.stagedir, 'build', 'bin', 'aller')
