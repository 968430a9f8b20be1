#!/usr/bin/env python3
"""Writes tests/abi/infinicore_abi.def: the facts of InfiniCore's public C headers (function
signatures, typedefs, enumerator values, struct field layouts) for every name that
infinicts' include/ declares, in the form abi_test.cc checks with the compiler.

Usage: tests/abi/refresh_abi.py INFINICORE_INCLUDE_DIR [--commit SHA]

Run it when InfiniCore's headers change or when include/ declares a new function; commit the
result. It needs g++ (to preprocess both header sets and to measure InfiniCore's structs)."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OURS = os.path.join(HERE, '..', '..', 'include')
HEADERS = ['infinirt.h', 'infiniop.h', 'infiniccl.h']


def headers_of(include_dir):
    """The three interface headers, and every operator header (infiniop.h leaves some out)."""
    ops = os.path.join(include_dir, 'infiniop', 'ops')
    extra = sorted(f'infiniop/ops/{name}' for name in os.listdir(ops) if name.endswith('.h')) if os.path.isdir(ops) else []
    return HEADERS + extra


def preprocess(include_dir):
    with tempfile.NamedTemporaryFile('w', suffix='.cc', delete=False) as tu:
        tu.write(''.join(f'#include "{h}"\n' for h in headers_of(include_dir)))
    try:
        return subprocess.run(['g++', '-E', '-P', '-x', 'c++', '-I', include_dir, tu.name], check=True,
                              capture_output=True, text=True).stdout
    finally:
        os.unlink(tu.name)


def collapse(text):
    return re.sub(r'\s+', ' ', text)


def functions(text):
    """name -> (return type, [parameter types]) of every extern "C" declaration."""
    found = {}
    pattern = re.compile(r'extern "C" (?:__attribute__\(\(visibility\("default"\)\)\) )?(\w+) (\w+) ?\(([^;{]*?)\) ?;')
    for ret, name, params in pattern.findall(collapse(text)):
        found[name] = (ret, [strip_name(p) for p in split_params(params)])
    return found


def split_params(params):
    params = params.strip()
    if params in ('', 'void'):
        return []
    return [p.strip() for p in params.split(',')]


TYPE_WORDS = {'const', 'volatile', 'struct', 'enum', 'unsigned', 'signed', 'long', 'short', 'int', 'char', 'float',
              'double', 'void', 'size_t', 'ptrdiff_t', 'bool'}


def strip_name(param):
    """The parameter's type: its declarator's name dropped ('const size_t *shape' -> 'const size_t *')."""
    tokens = re.findall(r'\w+|\*|\[\]|&', param)
    if len(tokens) > 1 and re.match(r'\w+$', tokens[-1]) and tokens[-1] not in TYPE_WORDS:
        tokens = tokens[:-1]
    text = ' '.join(tokens)
    return re.sub(r' \*', ' *', text).replace('* *', '**')


def typedefs(text):
    """name -> aliased type of every `typedef <type> <name>;` without a body."""
    found = {}
    for aliased, name in re.findall(r'typedef ([^;{}]+?) ?(\w+) ?;', collapse(text)):
        found[name] = aliased.strip()
    return found


def enumerators(text):
    names = []
    for body in re.findall(r'enum\b[^{;]*\{([^}]*)\}', collapse(text)):
        for item in body.split(','):
            match = re.match(r'\s*(\w+)', item)
            if match:
                names.append(match.group(1))
    return names


def structs(text, wanted=None):
    """name -> [field names] of every `typedef struct { ... } name;` (those in `wanted`, if given)."""
    found = {}
    for body, name in re.findall(r'typedef struct \{([^}]*)\} ?(\w+) ?;', collapse(text)):
        if wanted is None or name in wanted:
            found[name] = [re.findall(r'(\w+) ?(?:\[\w+\])? ?$', d.strip())[0] for d in body.split(';') if d.strip()]
    return found


def measure(include_dir, enum_names, struct_fields):
    """Enumerator values and struct field offsets and sizes, from a program built on InfiniCore's headers."""
    lines = ['#include <cstddef>', '#include <cstdio>'] + [f'#include "{h}"' for h in headers_of(include_dir)]
    lines.append('int main() {')
    for name in enum_names:
        lines.append(f'  std::printf("ABI_ENUM({name}, %lld)\\n", static_cast<long long>({name}));')
    for struct, fields in struct_fields.items():
        lines.append(f'  std::printf("ABI_STRUCT({struct}, %zu)\\n", sizeof({struct}));')
        for field in fields:
            lines.append(f'  std::printf("ABI_FIELD({struct}, {field}, %zu)\\n", offsetof({struct}, {field}));')
    lines.append('}')
    with tempfile.TemporaryDirectory() as folder:
        source, program = os.path.join(folder, 'probe.cc'), os.path.join(folder, 'probe')
        with open(source, 'w') as out:
            out.write('\n'.join(lines) + '\n')
        subprocess.run(['g++', '-std=c++17', '-I', include_dir, source, '-o', program], check=True)
        return subprocess.run([program], check=True, capture_output=True, text=True).stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('infinicore_include')
    parser.add_argument('--commit', default='unknown')
    args = parser.parse_args()
    theirs_text, ours_text = preprocess(args.infinicore_include), preprocess(OURS)
    theirs, ours = functions(theirs_text), functions(ours_text)
    missing = sorted(set(ours) - set(theirs))
    if missing:
        sys.exit('include/ declares functions InfiniCore does not: ' + ', '.join(missing))
    their_typedefs, our_typedefs = typedefs(theirs_text), typedefs(ours_text)
    our_structs = {n for n in re.findall(r'typedef struct \{[^}]*\} ?(\w+) ?;', collapse(ours_text)) if n.startswith('infini')}
    their_structs = structs(theirs_text, our_structs)
    our_enumerators = set(enumerators(ours_text))
    enum_names = [n for n in dict.fromkeys(enumerators(theirs_text)) if n in our_enumerators and n.startswith('INFINI')]
    shared_structs = {n: f for n, f in their_structs.items() if n in our_structs}

    out = ['/* InfiniCore\'s public C interface, as infinicts\' include/ must match it (abi_test.cc): the',
           f' * facts of InfiniCore\'s headers at commit {args.commit} for every name include/ declares.',
           ' * Written by tests/abi/refresh_abi.py; do not edit by hand.',
           ' *   ABI_FUNCTION(name, return type, (parameter types))',
           ' *   ABI_TYPEDEF(name, aliased type)       pointer and integer typedefs',
           ' *   ABI_ENUM(enumerator, value)',
           ' *   ABI_STRUCT(name, size) and ABI_FIELD(struct, field, offset), measured on x86-64 Linux */']
    for name in sorted(ours):
        ret, params = theirs[name]
        out.append(f'ABI_FUNCTION({name}, {ret}, ({", ".join(params)}))')
    for name in sorted(n for n in our_typedefs if n.startswith('infini')):
        aliased = their_typedefs.get(name)
        if aliased is not None and not aliased.startswith(('enum', 'struct {')):
            out.append(f'ABI_TYPEDEF({name}, {aliased})')
    out.extend(measure(args.infinicore_include, enum_names, shared_structs).splitlines())
    with open(os.path.join(HERE, 'infinicore_abi.def'), 'w') as target:
        target.write('\n'.join(out) + '\n')
    print(f'{len(ours)} functions, {len(enum_names)} enumerators, {len(shared_structs)} structs')


if __name__ == '__main__':
    main()
