#!/usr/bin/env python3
"""Writes a deterministic tree of N helmfile folders, each with a helmfile.yaml.gotmpl (a
template of three releases, about 130 lines, that reads every var through Values,
StateValues, with, range, if, index and a define), a tazuna.hint.yaml of VARS vars (mixed types, formats, conditions, a rule) and a values.yaml
that satisfies it, plus OUTDIR/tazuna.yaml declaring every folder as a helmfile manifest whose
vars come from static sources (and one env var, HINTKIT_BENCH_CLUSTER, per manifest). With
INCLUDES > 0 the manifests are spread over INCLUDES files under OUTDIR/included/ that
tazuna.yaml includes (their paths stay relative to tazuna.yaml's folder, as tazuna reads them).

Usage: gen_hint_tree.py N OUTDIR [VARS] [INCLUDES]
"""
import os
import sys

FORMATS = ["hostname", "url", "email", "ip", "cidr", "uuid", "semver", "datetime"]
SAMPLES = {
    "hostname": "svc-{i}.example.com", "url": "https://svc-{i}.example.com/x",
    "email": "team{i}@example.com", "ip": "10.0.{j}.{k}", "cidr": "10.{j}.0.0/16",
    "uuid": "550e8400-e29b-41d4-a716-{i:012d}", "semver": "v1.{j}.{k}",
    "datetime": "2024-01-15T10:30:00Z",
}


def hint(n_vars):
    lines = ["apiVersion: tazuna.pepabo.com/v1", "kind: TazunaHint", "vars:"]
    for v in range(n_vars):
        lines.append(f"  var{v}:")
        kind = v % 5
        if kind == 0:
            lines += ["    type: string", "    required: true", f"    description: Var {v}"]
        elif kind == 1:
            fmt = FORMATS[v % len(FORMATS)]
            lines += ["    type: string", f"    format: {fmt}"]
        elif kind == 2:
            lines += ["    type: slice"]
        elif kind == 3:
            lines += ["    type: map", f"    required_with: [var{v - 3}]"]
        else:
            lines += ["    type: string", f'    default: "d{v}"', f"    required_without: [var{v - 4}]"]
    lines += ["rules:", "  - type: oneof_required", "    vars: [var0, var1]",
              "    message: set var0 or var1"]
    return "\n".join(lines) + "\n"


def values(n_vars, i):
    lines = []
    for v in range(n_vars):
        kind = v % 5
        if kind == 0:
            lines.append(f"var{v}: value-{i}-{v}")
        elif kind == 1:
            fmt = FORMATS[v % len(FORMATS)]
            lines.append(f'var{v}: "{SAMPLES[fmt].format(i=i, j=i % 250, k=v % 250)}"')
        elif kind == 2:
            lines.append(f"var{v}: [a, b]")
        elif kind == 3:
            lines.append(f"var{v}: {{team: t{i}}}")
    return "\n".join(lines) + "\n"


def declarations(n_vars, i):
    lines = []
    for v in range(n_vars):
        kind = v % 5
        if kind == 0:
            src = "{from: env, env: HINTKIT_BENCH_CLUSTER}" if v == 0 else f"{{from: static, static: value-{i}-{v}}}"
        elif kind == 1:
            fmt = FORMATS[v % len(FORMATS)]
            src = f'{{from: static, static: "{SAMPLES[fmt].format(i=i, j=i % 250, k=v % 250)}"}}'
        elif kind == 2:
            src = "{from: static, staticSlice: [a, b]}"
        elif kind == 3:
            src = f"{{from: static, staticMap: {{team: t{i}}}}}"
        else:
            continue
        lines.append(f"          var{v}: {src}")
    return lines


def helmfile(n_vars, i):
    """A realistic helmfile template that uses every var of hint(n_vars) and nothing else."""
    out = ['{{- define "labels" }}', f"app.kubernetes.io/name: app{i:05d}",
           'app.kubernetes.io/managed-by: tazuna', '{{- end }}',
           "repositories:", "  - name: charts", "    url: https://charts.example.com",
           "releases:"]
    for r, release in enumerate(["api", "worker", "web"]):
        out += [f"  - name: app{i:05d}-{release}", f"    namespace: team{i // 100:03d}",
                f"    chart: charts/{release}", f"    version: 1.{r}.{i % 10}",
                "    labels:", '      {{- template "labels" . }}', "    values:",
                f"      - cluster: {{{{ .StateValues.var0 | quote }}}}",
                f"        release: {release}", "        resources:",
                "          requests: {cpu: 100m, memory: 128Mi}",
                "          limits: {cpu: 500m, memory: 512Mi}",
                "        service:", "          type: ClusterIP", "          ports:",
                "            - {name: http, port: 80, targetPort: 8080}",
                "        probes:", "          liveness: {path: /healthz, port: 8080}",
                "          readiness: {path: /ready, port: 8080, periodSeconds: 5}",
                "        podAnnotations:", f"          checksum/config: \"{i:08x}{r:08x}\"",
                "        env:", "          - {name: LOG_LEVEL, value: info}",
                f"          - {{name: RELEASE, value: {release}}}"]
        for v in range(n_vars):
            if v % 3 != r and v != 0:
                continue
            kind = v % 5
            if kind in (0, 4):
                out.append(f"        key{v}: {{{{ .Values.var{v} | default \"x\" | quote }}}}")
            elif kind == 1:
                out += [f"        {{{{- if .Values.var{v} }}}}",
                        f"        endpoint{v}: {{{{ index .Values \"var{v}\" | quote }}}}",
                        "        {{- end }}"]
            elif kind == 2:
                out += [f"        list{v}:", f"        {{{{- range $k, $z := .StateValues.var{v} }}}}",
                        "          - {{ $z | quote }}", "        {{- end }}"]
            else:
                out += ["        {{- with .Values }}", f"        map{v}: {{{{ .var{v} | toYaml | nindent 10 }}}}",
                        "        {{- end }}"]
    return "\n".join(out) + "\n"


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    n_vars = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    includes = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    text = hint(n_vars)
    header = ["apiVersion: tazuna.pepabo.com/v1", "kind: Tazuna", "spec:", "  manifests:"]
    config = list(header)
    parts = [list(header) for _ in range(includes)]
    for i in range(n):
        rel = os.path.join(f"team{i // 100:03d}", f"app{i:05d}")
        manifest = [f"    - name: app{i:05d}", "      type: helmfile", f"      path: {rel}",
                    "      helmfile:", "        vars:"] + declarations(n_vars, i)
        (parts[i * includes // n] if includes else config).extend(manifest)
        d = os.path.join(out, rel)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "helmfile.yaml.gotmpl"), "w") as f:
            f.write(helmfile(n_vars, i))
        with open(os.path.join(d, "tazuna.hint.yaml"), "w") as f:
            f.write(text)
        with open(os.path.join(d, "values.yaml"), "w") as f:
            f.write(values(n_vars, i))
    if includes:
        os.makedirs(os.path.join(out, "included"), exist_ok=True)
        config += ["    - name: everything", "      includes:"]
        for k, part in enumerate(parts):
            with open(os.path.join(out, "included", f"part{k:02d}.yaml"), "w") as f:
                f.write("\n".join(part) + "\n")
            config.append(f"        - path: included/part{k:02d}.yaml")
    with open(os.path.join(out, "tazuna.yaml"), "w") as f:
        f.write("\n".join(config) + "\n")


if __name__ == "__main__":
    main()
