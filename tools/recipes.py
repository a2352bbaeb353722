#!/usr/bin/python3
"""tools/recipes.py: what the Spack and EasyBuild recipes (packaging/) ask of
the Makefile, without Spack or EasyBuild (neither runs here).

  recipes.py check [ROOT]        their versions are the project's, and every
                                 make variable they pass is one the Makefile reads
  recipes.py spack BUILD|INSTALL|PATHS [VARIANT ...]
                                 the make arguments of Spack's build or install
                                 (VARIANT: +cuda, +nccl, cuda_arch=90), or the
                                 paths its sanity check expects
  recipes.py easybuild FILE BUILD|INSTALL|PATHS
                                 the same of an easyconfig (shell words: $MPICC
                                 and $CC are the toolchain's)

The Spack recipe is loaded with a small stand-in for spack.package (the
names it imports) and a spec made of the variants given; the easyconfig is
read as EasyBuild reads it, Python with its constants, then its templates
filled. Exit 0; 1 a check failed (one line each); 2 bad usage.
"""
import glob
import os
import re
import shlex
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREFIX = '/opt/aller'   # where PATHS and INSTALL put the install


def project_version(root):
    with open(os.path.join(root, 'common', 'format.h')) as f:
        return re.search(r'^#define ALLER_VERSION "(.*)"$', f.read(), re.M).group(1)


def makefile_variables(root):
    """Every variable the Makefile and its fragments read or default."""
    names = set()
    for path in [os.path.join(root, 'Makefile')] + glob.glob(os.path.join(root, '*', 'build.mk')):
        with open(path) as f:
            text = f.read()
        names.update(re.findall(r'\$\(([A-Z_][A-Z0-9_]*)\)', text))
        names.update(re.findall(r'^([A-Z_][A-Z0-9_]*) *\?=', text, re.M))
    return names


# --- Spack ---------------------------------------------------------------
class _Spec:
    def __init__(self, variants):
        self.on = {v[1:] for v in variants if v.startswith('+')}
        arch = [v.split('=', 1)[1] for v in variants if v.startswith('cuda_arch=')]
        self.variants = {'cuda_arch': types.SimpleNamespace(value=tuple(arch or ['none']))}

    def satisfies(self, s):
        return s[1:] in self.on if s[0] == '+' else s[1:] not in self.on

    def __getitem__(self, name):
        return types.SimpleNamespace(prefix=f'/spack/{name}', mpicc='mpicc')


def load_spack(root):
    seen = {'versions': []}
    api = types.ModuleType('spack.package')

    api.MakefilePackage = type('MakefilePackage', (), {})
    api.CudaPackage = type('CudaPackage', (), {})
    api.version = lambda v, **kw: seen['versions'].append(v)
    api.variant = api.conflicts = api.depends_on = api.maintainers = api.license = \
        lambda *a, **kw: None
    sys.modules['spack'] = types.ModuleType('spack')
    sys.modules['spack.package'] = api
    path = os.path.join(root, 'packaging', 'spack', 'aller', 'package.py')
    ns = {'__name__': 'aller_recipe'}
    with open(path) as f:
        exec(compile(f.read(), path, 'exec'), ns)
    return ns['Aller'], seen['versions']


def spack_args(root, what, variants):
    cls, _ = load_spack(root)
    pkg = cls()
    pkg.spec = _Spec(variants)
    pkg.prefix = PREFIX
    pkg.compiler = types.SimpleNamespace(cc='gcc')
    if what == 'PATHS':
        return pkg.sanity_check_is_file + pkg.sanity_check_is_dir
    return pkg.build_targets if what == 'BUILD' else pkg.install_targets


# --- EasyBuild -----------------------------------------------------------
def load_easyconfig(path):
    ns = {'SOURCE_TAR_GZ': '%(name)s-%(version)s.tar.gz', 'SYSTEM': {'name': 'system'}}
    with open(path) as f:
        exec(compile(f.read(), path, 'exec'), ns)
    return ns


def easybuild_args(path, what):
    ec = load_easyconfig(path)
    if what == 'PATHS':
        return ec['sanity_check_paths']['files'] + ec['sanity_check_paths']['dirs']
    opts = ec['buildopts'] if what == 'BUILD' else ec['installopts']
    templates = {'installdir': PREFIX, 'cuda_cc_space_sep': '8.0 9.0',
                 'name': ec['name'], 'version': ec['version']}
    return [opts % templates] if '%(' in opts else [opts]


def words(args):
    """The make variables NAME=... among shell words."""
    out = []
    for a in args:
        for w in shlex.split(a):
            m = re.match(r'([A-Z_][A-Z0-9_]*)=', w)
            if m:
                out.append(m.group(1))
    return out


def check(root):
    want, bad = project_version(root), []
    known = makefile_variables(root)
    _, versions = load_spack(root)
    if want not in versions:
        bad.append(f"spack: no version('{want}') (the project's, common/format.h); it has {versions}")
    used = {}
    for what in ('BUILD', 'INSTALL'):
        for var in words(spack_args(root, what, ['+cuda', '+nccl', 'cuda_arch=90'])):
            used.setdefault(var, 'packaging/spack/aller/package.py')
    ecs = sorted(glob.glob(os.path.join(root, 'packaging', 'easybuild', '*.eb')))
    if not ecs:
        bad.append('easybuild: no easyconfig in packaging/easybuild')
    for path in ecs:
        ec, name = load_easyconfig(path), os.path.relpath(path, root)
        if ec['version'] != want:
            bad.append(f"{name}: version '{ec['version']}', the project's is '{want}'")
        if not os.path.basename(path).startswith(f"aller-{ec['version']}-"):
            bad.append(f"{name}: its name does not carry its version {ec['version']}")
        for what in ('BUILD', 'INSTALL'):
            for var in words(easybuild_args(path, what)):
                used.setdefault(var, name)
    for var, where in sorted(used.items()):
        if var not in known:
            bad.append(f"{where}: passes {var}=, which the Makefile does not read")
    for line in bad:
        print(f'recipes: error: {line}', file=sys.stderr)
    if not bad:
        print(f"recipes: ok: version {want}; make variables {' '.join(sorted(used))}")
    return 1 if bad else 0


def main(argv):
    try:
        if argv[0] == 'check' and len(argv) <= 2:
            return check(argv[1] if len(argv) == 2 else ROOT)
        if argv[0] == 'spack' and argv[1] in ('BUILD', 'INSTALL', 'PATHS'):
            print('\n'.join(spack_args(ROOT, argv[1], argv[2:])))
            return 0
        if argv[0] == 'easybuild' and len(argv) == 3 and argv[2] in ('BUILD', 'INSTALL', 'PATHS'):
            print('\n'.join(easybuild_args(argv[1], argv[2])))
            return 0
    except IndexError:
        pass
    print('usage: recipes.py check [ROOT] | spack BUILD|INSTALL|PATHS [VARIANT ...] | '
          'easybuild FILE BUILD|INSTALL|PATHS', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
