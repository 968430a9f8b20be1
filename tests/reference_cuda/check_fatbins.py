#!/usr/bin/env python3
"""Checks that shared libraries carry GPU code for the architectures the CUDA reference
supports: a cubin (SASS) for each of --sass, and PTX for each of --ptx (so newer GPUs
can JIT it). Reads each library's .nv_fatbin section (extracted with objcopy) without
cuobjdump, which not every toolkit install has.

Fatbin layout: containers, each a 16-byte header (magic 0xBA55ED50, version u16, header
size u16, payload size u64) followed by entries, each a header (kind u16: 1 PTX, 2 ELF;
version u16; header size u32; payload size u64; ...; the architecture as u32 at byte 28)
and its payload.

  check_fatbins.py --sass 80,90 --ptx 90 LIB [LIB ...]
Exit 0 when every library carries them; 1 naming what is missing; 2 on bad input."""
import argparse
import os
import struct
import subprocess
import sys
import tempfile

MAGIC = 0xBA55ED50
KINDS = {1: "ptx", 2: "sass"}


def fatbin_section(library):
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "fatbin")
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", library, out],
                       check=True, capture_output=True)
        with open(out, "rb") as f:
            return f.read()


def images(data):
    """(kind, arch) of every entry of every container."""
    found = set()
    offset = 0
    while offset + 16 <= len(data):
        magic, _version, header_size, size = struct.unpack_from("<IHHQ", data, offset)
        if magic != MAGIC:
            offset += 8  # containers are 8-byte aligned
            continue
        entry, end = offset + header_size, offset + header_size + size
        while entry + 32 <= end:
            kind, _ev, entry_header, payload = struct.unpack_from("<HHIQ", data, entry)
            arch = struct.unpack_from("<I", data, entry + 28)[0]
            if kind in KINDS:
                found.add((KINDS[kind], arch))
            if entry_header == 0:
                break
            entry += entry_header + payload
        offset = end
    return found


def parse_list(text):
    return {int(a) for a in text.split(",") if a}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sass", default="", help="architectures that need a cubin, e.g. 80,90")
    parser.add_argument("--ptx", default="", help="architectures that need PTX, e.g. 90")
    parser.add_argument("libraries", nargs="+")
    args = parser.parse_args()
    missing = []
    for library in args.libraries:
        if not os.path.isfile(library):
            print(f"{library}: no such file", file=sys.stderr)
            return 2
        try:
            found = images(fatbin_section(library))
        except subprocess.CalledProcessError as error:
            print(f"{library}: objcopy failed: {error.stderr.decode(errors='replace').strip()}", file=sys.stderr)
            return 2
        have = ", ".join(f"{kind} sm_{arch}" for kind, arch in sorted(found)) or "no GPU code"
        print(f"{os.path.basename(library)}: {have}")
        for kind, wanted in (("sass", parse_list(args.sass)), ("ptx", parse_list(args.ptx))):
            for arch in sorted(wanted):
                if (kind, arch) not in found:
                    missing.append(f"{os.path.basename(library)} lacks {kind} for sm_{arch}")
    for line in missing:
        print(line, file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
