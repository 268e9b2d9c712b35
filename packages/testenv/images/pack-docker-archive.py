#!/usr/bin/env python3
"""Packs plain layer tars into a docker-archive (`docker save` format) that
`ctr images import` (and `docker load`, `podman load`) accept.

    pack-docker-archive.py SPEC.json OUT.tar

SPEC.json:
    {"layers": {"<name>": "<path of a plain layer tar>", ...},
     "images": [{"tags": ["flink:2.2", ...], "layers": ["<name>", ...],
                 "config": {"Env": [...], "Entrypoint": [...], ...},
                 "history": ["<one line per layer>", ...]}, ...]}

The archive holds manifest.json, one <sha256>.json image config per image and each layer once as
<sha256>/layer.tar (uncompressed, content-addressed), so images of one archive share layers.
A layer's digest is cached beside it in <layer>.sha256 (reused while the tar is not newer).
The output is written to OUT.tar.partial and renamed, so OUT.tar is complete or absent.
"""
import hashlib
import io
import json
import os
import sys
import tarfile
import time

CHUNK = 4 << 20


def log(message):
    print(time.strftime("[images %H:%M:%S] ") + message, file=sys.stderr, flush=True)


def layer_digest(path):
    sidecar = path + ".sha256"
    if os.path.exists(sidecar) and os.path.getmtime(sidecar) >= os.path.getmtime(path):
        with open(sidecar) as f:
            return f.read().strip()
    started = time.time()
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            block = f.read(CHUNK)
            if not block:
                break
            h.update(block)
    digest = h.hexdigest()
    with open(sidecar + ".tmp", "w") as f:
        f.write(digest + "\n")
    os.replace(sidecar + ".tmp", sidecar)
    log(f"sha256 of {os.path.basename(path)} ({os.path.getsize(path) / 2**20:.0f} MiB) in {time.time() - started:.1f} s")
    return digest


def add_bytes(archive, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = 0
    info.mode = 0o644
    archive.addfile(info, io.BytesIO(data))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    spec_path, out = sys.argv[1], sys.argv[2]
    with open(spec_path) as f:
        spec = json.load(f)
    digests = {name: layer_digest(path) for name, path in spec["layers"].items()}

    started = time.time()
    partial = out + ".partial"
    manifest = []
    written = set()
    with tarfile.open(partial, "w", format=tarfile.PAX_FORMAT) as archive:
        for image in spec["images"]:
            names = image["layers"]
            history = image.get("history") or names
            config = {
                "architecture": "amd64",
                "os": "linux",
                "created": "1970-01-01T00:00:00Z",
                "config": image["config"],
                "rootfs": {"type": "layers", "diff_ids": ["sha256:" + digests[n] for n in names]},
                "history": [{"created": "1970-01-01T00:00:00Z", "created_by": h} for h in history],
            }
            config_bytes = json.dumps(config, sort_keys=True, separators=(",", ":")).encode()
            config_name = hashlib.sha256(config_bytes).hexdigest() + ".json"
            if config_name not in written:
                add_bytes(archive, config_name, config_bytes)
                written.add(config_name)
            layer_paths = []
            for name in names:
                member = digests[name] + "/layer.tar"
                if member not in written:
                    path = spec["layers"][name]
                    info = tarfile.TarInfo(member)
                    info.size = os.path.getsize(path)
                    info.mtime = 0
                    info.mode = 0o644
                    with open(path, "rb") as f:
                        archive.addfile(info, f)
                    written.add(member)
                layer_paths.append(member)
            manifest.append({"Config": config_name, "RepoTags": image["tags"], "Layers": layer_paths})
        add_bytes(archive, "manifest.json", json.dumps(manifest, indent=1).encode())
    with open(partial, "rb+") as f:
        os.fsync(f.fileno())
    os.replace(partial, out)
    log(f"packed {os.path.basename(out)} ({os.path.getsize(out) / 2**20:.0f} MiB, "
        f"{', '.join(t for i in spec['images'] for t in i['tags'])}) in {time.time() - started:.1f} s")


if __name__ == "__main__":
    main()
