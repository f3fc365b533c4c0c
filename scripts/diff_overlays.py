#!/usr/bin/env python3
"""Differential check of ytt overlays: random overlays through the reference ytt and hintkit.

Each case is one or two template files of Kubernetes-like documents (some written as YAML,
some computed from Starlark dicts, the odd empty one) and one or two overlay files whose
documents carry `#@overlay/match` with a random matcher (`overlay.subset`, `map_key`, `all`,
`index`, `and_op`/`or_op`/`not_op`, a lambda), a random count check (`expects` as int, "N+",
list or function, `missing_ok`, `when`), `#@overlay/match-child-defaults`, and random
operations at every level (merge, remove, replace with `via`/`or_add`, insert before/after
with `via`, append, assert with `via`). Some cases apply overlays in Starlark with
`overlay.apply` instead, and some keep fragments in variables, index them and put them in
several places (ytt shares one node between those places). Deliberate mistakes (unknown keywords, wrong types) come up too.

Both programs run in the same folder with the same arguments; a case agrees when exit code,
stdout and stderr (program name normalised) are identical. Prints the agreement rate, silent
wrong answers (hintkit exit 0 with another answer) and the first disagreements.

usage: YTT=/path/to/ytt scripts/diff_overlays.py [HINTKIT] [--count N] [--seed S] [--show K]
"""
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from diffkit import normalise, options, run, write_files  # noqa: E402

KINDS = ["Deployment", "Service", "ConfigMap"]
NAMES = ["web", "db", "cache"]
CONTAINERS = ["app", "sidecar", "init"]


class Gen:
    def __init__(self, rnd):
        self.r = rnd
        # ytt hands document matchers an index over its template files in Go map order (random
        # from run to run): index matchers only when there is one template file
        self.one_left_file = True

    def chance(self, p):
        return self.r.random() < p

    # ---- left side: template documents ------------------------------------------------------

    def yaml_doc(self, out, kind, name):
        r = self.r
        out.append("---")
        out.append(f"kind: {kind}")
        out.append("metadata:")
        out.append(f"  name: {name}")
        if self.chance(0.7):
            out.append("  labels:")
            out.append(f"    app: {name}")
            if self.chance(0.5):
                out.append(f"    tier: {r.choice(['front', 'back'])}")
        if self.chance(0.3):
            out.append("  annotations: null")
        out.append("spec:")
        out.append(f"  replicas: {r.randint(1, 3)}")
        out.append("  containers:")
        for c in r.sample(CONTAINERS, r.randint(1, 3)):
            out.append(f"  - name: {c}")
            out.append(f"    image: {c}:{r.randint(1, 9)}")
            if self.chance(0.4):
                out.append("    ports:")
                out.append(f"    - {r.randint(80, 90)}")
        if self.chance(0.3):
            out.append("  tags: [a, b, c]")

    def computed_doc(self, out, kind, name):
        r = self.r
        labels = '{"app": "%s"}' % name if self.chance(0.7) else "None"
        cs = ", ".join('{"name": "%s", "image": "%s:1"}' % (c, c)
                       for c in r.sample(CONTAINERS, r.randint(1, 2)))
        out.append(f'--- #@ {{"kind": "{kind}", "metadata": {{"name": "{name}", "labels": '
                   f'{labels}}}, "spec": {{"replicas": {r.randint(1, 3)}, "containers": [{cs}]}}}}')

    def template_file(self):
        r = self.r
        out = []
        for _ in range(r.randint(1, 4)):
            x = r.random()
            kind, name = r.choice(KINDS), r.choice(NAMES)
            if x < 0.7:
                self.yaml_doc(out, kind, name)
            elif x < 0.9:
                self.computed_doc(out, kind, name)
            else:
                out.append(r.choice(["--- {}", "--- #@ {}", "--- #@ []", "---", "--- 5"]))
        return "\n".join(out) + "\n"

    # ---- right side: overlays ---------------------------------------------------------------

    def doc_matcher(self):
        r = self.r
        return r.choice([
            lambda: 'overlay.subset({"kind": "%s"})' % r.choice(KINDS),
            lambda: 'overlay.subset({"metadata": {"name": "%s"}})' % r.choice(NAMES),
            lambda: "overlay.all",
            lambda: "overlay.index(%d)" % r.randint(0, 3) if self.one_left_file else "overlay.all",
            lambda: 'overlay.and_op(overlay.subset({"kind": "%s"}), overlay.not_op(overlay.subset('
                    '{"metadata": {"name": "%s"}})))' % (r.choice(KINDS), r.choice(NAMES)),
            lambda: 'overlay.or_op(overlay.subset({"kind": "%s"}), overlay.subset({"kind": "%s"}))'
                    % (r.choice(KINDS), r.choice(KINDS)),
            lambda: 'lambda i, l, r: "metadata" in l and l["metadata"]["name"] == "%s"'
                    % r.choice(NAMES),
            lambda: "lambda i, l, r: i %% 2 == %d" % r.randint(0, 1) if self.one_left_file
                    else "lambda i, l, r: True",
        ])()

    def count_kwarg(self):
        r = self.r
        x = r.random()
        if x < 0.15:
            return ""
        if x < 0.6:
            return r.choice([', expects="0+"', ', expects="1+"', ", missing_ok=True"])
        if x < 0.9:
            return r.choice([
                lambda: ", expects=%d" % r.randint(0, 3),
                lambda: ", expects=[0, %d]" % r.randint(1, 3),
                lambda: ", expects=lambda n: n %s %d" % (r.choice([">", "<", "=="]), r.randint(0, 2)),
                lambda: ", when=%d" % r.randint(0, 2),
                lambda: ', when="1+"',
            ])()
        return r.choice([", expects=%s" % r.choice(['"x"', "1.5", '"+"', "True"]),
                         ", missing_ok=True, expects=1", ", bogus=1"])

    def item_count_kwarg(self):
        r = self.r
        return r.choice(["", "", "", "missing_ok=True", "expects=%d" % r.randint(0, 2),
                         'expects="0+"', "when=1", "when=0"])

    # The keys each level of the left documents holds (others get `missing_ok` mostly).
    LEVEL_KEYS = {"metadata": ["name", "labels", "annotations"], "spec": ["replicas", "containers",
                  "tags"], "labels": ["app", "tier"]}

    def map_items(self, out, pad, depth, level):
        r = self.r
        known = self.LEVEL_KEYS.get(level, ["name", "image"])
        for key in r.sample(known, r.randint(1, len(known))) + (["extra"] if self.chance(0.3) else []):
            x = r.random()
            kw = self.item_count_kwarg()
            if key not in known and not kw and self.chance(0.8):
                kw = "missing_ok=True"
            if kw:
                out.append(f"{pad}#@overlay/match {kw}")
            if x < 0.1:
                out.append(f"{pad}#@overlay/remove")
                out.append(f"{pad}{key}: null")
            elif x < 0.25:
                via = r.choice(["", " via=lambda l, r: r", " via=lambda l, r: str(l) + \"-\" + str(r)",
                                " or_add=True", " via=lambda l, r: {\"from\": l}",
                                " via=lambda l, r: [type(l), type(r)]",
                                " via=lambda l, r: yaml.encode(l)", " or_add=True, via=lambda l, r: l"])
                out.append(f"{pad}#@overlay/replace{via}")
                out.append(f"{pad}{key}: {r.choice(['x', '7', '[1, 2]', '{a: 1}', 'null'])}")
            elif x < 0.32:
                out.append(f"{pad}#@overlay/assert" + r.choice(["", " via=lambda l, r: l != r",
                                                                 " via=lambda l, r: (False, \"no\")"]))
                out.append(f"{pad}{key}: {r.choice(['1', 'web', '2'])}")
            elif x < 0.34:
                out.append(f"{pad}#@overlay/{r.choice(['insert before=True', 'append'])}")
                out.append(f"{pad}{key}: 1")
            elif key in ("labels",) and depth < 3:
                if self.chance(0.3):
                    out.append(f"{pad}#@overlay/match-child-defaults missing_ok=True")
                out.append(f"{pad}{key}:")
                self.map_items(out, pad + "  ", depth + 1, key)
            elif key in ("containers", "tags") and depth < 3:
                out.append(f"{pad}{key}:")
                self.array_items(out, pad, depth + 1)
            else:
                out.append(f"{pad}{key}: {r.choice(['v', '3', 'true', 'null', '[x]', '{k: v}'])}")

    def array_items(self, out, pad, depth):
        r = self.r
        for _ in range(r.randint(1, 2)):
            by = r.choice(['by="name"', 'by=overlay.subset({"name": "%s"})' % r.choice(CONTAINERS),
                           "by=overlay.index(%d)" % r.randint(0, 2), "by=overlay.all",
                           "by=lambda i, l, r: i == %d" % r.randint(0, 2)])
            kw = self.item_count_kwarg()
            x = r.random()
            ann = f"{pad}#@overlay/match {by}" + (", " + kw if kw else "")
            if x < 0.15:
                out.append(f"{pad}- name: {r.choice(CONTAINERS)}")  # appended, no match
                continue
            out.append(ann)
            if x < 0.3:
                out.append(f"{pad}#@overlay/remove")
            elif x < 0.45:
                out.append(f"{pad}#@overlay/replace" + r.choice(["", " via=lambda l, r: r", " or_add=True"]))
            elif x < 0.6:
                out.append(f"{pad}#@overlay/insert " + r.choice(
                    ["before=True", "after=True", "after=True, via=lambda l, r: l"]))
            elif x < 0.65:
                out.append(f"{pad}#@overlay/append")
            out.append(f"{pad}- name: {r.choice(CONTAINERS)}")
            if depth < 3 and self.chance(0.6):  # tags are strings: a map here is a type error
                out.append(f"{pad}  image: new:{r.randint(1, 9)}")
            if depth < 3 and self.chance(0.3):
                out.append(f"{pad}  #@overlay/match missing_ok=True")
                out.append(f"{pad}  env: [{r.randint(0, 9)}]")

    def overlay_doc(self, out):
        r = self.r
        if self.chance(0.2):
            out.append("#@overlay/match-child-defaults missing_ok=True")
        out.append(f"#@overlay/match by={self.doc_matcher()}{self.count_kwarg()}")
        x = r.random()
        if x < 0.12:
            out.append("#@overlay/remove")
            out.append("---")
            return
        # or_add adds to ytt's first document set, append to its last: in Go map order (random)
        # when there are several template files
        if x < 0.24:
            out.append("#@overlay/replace" + r.choice(
                ["", " via=lambda l, r: r"] + ([" or_add=True"] if self.one_left_file else [])))
        elif x < 0.32:
            out.append("#@overlay/insert " + r.choice(["before=True", "after=True"]))
        elif x < 0.36 and self.one_left_file:
            out.append("#@overlay/append")
        elif x < 0.42:
            out.append("#@overlay/assert")
        out.append("---")
        if self.chance(0.1):
            return  # an empty document
        if self.chance(0.3):
            out.append("#@overlay/match missing_ok=True")
            out.append(f"kind: {r.choice(KINDS)}")
        if self.chance(0.8):
            out.append("#@overlay/match missing_ok=True" if self.chance(0.3) else "metadata:")
            if out[-1].startswith("#@"):
                out.append("metadata:")
            self.map_items(out, "  ", 1, "metadata")
        if self.chance(0.6):
            if self.chance(0.3):
                out.append("#@overlay/match-child-defaults missing_ok=True")
            out.append("spec:")
            self.map_items(out, "  ", 1, "spec")

    def overlay_file(self):
        out = ['#@ load("@ytt:overlay", "overlay")', '#@ load("@ytt:yaml", "yaml")']
        for _ in range(self.r.randint(1, 3)):
            self.overlay_doc(out)
        return "\n".join(out) + "\n"

    def apply_file(self):
        # overlay.apply in Starlark: the left documents and the overlays as fragments
        left = self.template_file()
        right = self.overlay_file().split("\n", 2)[2]
        out = ['#@ load("@ytt:overlay", "overlay")', '#@ load("@ytt:yaml", "yaml")', "#@ def left():"]
        out += left.rstrip("\n").split("\n")
        out += ["#@ end", "#@ def right():"]
        out += right.rstrip("\n").split("\n")
        out += ["#@ end", "#@ for d in overlay.apply(left(), right()):", "--- #@ d", "#@ end"]
        return "\n".join(out) + "\n"

    def apply_value_file(self):
        # overlay.apply on maps and arrays (dicts, lists and fragments) inside a template
        r = self.r
        out = ['#@ load("@ytt:overlay", "overlay")', '#@ load("@ytt:yaml", "yaml")', "#@ def frag():"]
        self.map_items(out, "", 1, r.choice(["metadata", "spec", "labels"]))
        out.append("#@ end")
        left = r.choice(['{"name": "web", "labels": {"app": "web"}, "annotations": None}',
                         '{"replicas": 2, "containers": [{"name": "app"}, {"name": "init"}], '
                         '"tags": ["a"]}', '{"app": "x", "tier": "back"}', "frag()", "[1, 2]"])
        out.append(f"#@ v = overlay.apply({left}, frag())")
        out.append("result: #@ v")
        out.append("kinds: #@ [type(v)]")
        out.append("text: #@ yaml.encode(v)")
        return "\n".join(out) + "\n"

    def shared_fragment_file(self):
        # ytt's fragments are shared nodes: a fragment kept in a variable and put in several
        # places, indexed (`x["spec"]`), or handed to overlay.apply (which edits its left
        # fragment in place), then maybe a document overlay editing one of the places
        r = self.r
        out = ['#@ load("@ytt:overlay", "overlay")', "#@ def frag():", "metadata:",
               "  name: web", "  labels:", "    app: web", "spec:", "  replicas: 1", "#@ end",
               "#@ def patch():", "#@overlay/match missing_ok=True", "spec:",
               "  #@overlay/match missing_ok=True", "  replicas: 3", "#@ end"]
        parent = r.choice(["frag()", "x"])
        pieces = {"x": "x", "part": f'{parent}["{r.choice(["metadata", "spec"])}"]',
                  "sub": f'{parent}["metadata"]["labels"]'}
        out.append("#@ x = frag()")
        names = ["x"]
        if self.chance(0.5):
            out.append(f"#@ part = {pieces['part']}")
            names.append("part")
        if self.chance(0.4):
            out.append(f"#@ sub = {pieces['sub']}")
            names.append("sub")
        if self.chance(0.6):
            target = r.choice(names + ["frag()"])
            right = r.choice(["patch()", '{"spec": {"replicas": 4}}'])
            out.append(f"#@ y = overlay.apply({target}, {right})")
            names.append("y")
        if self.chance(0.3):
            out.append(f"#@ overlay.apply({r.choice(names)}, patch())")
        out.append("---")
        for i in range(r.randint(1, 3)):
            v = r.choice(names)
            out.append(f"p{i}: #@ {v}" if self.chance(0.7) else f"p{i}: #@ [{v}]")
        if self.chance(0.6):
            out += ["#@overlay/match by=overlay.all", "---", "p0:",
                    "  #@overlay/match missing_ok=True", "  extra: 1"]
        return "\n".join(out) + "\n"

    def config_dir(self):
        # a configuration folder as packages ship them: data values, templates looping over
        # them, overlays (in a sub-folder, some conditional) that read data values too
        r = self.r
        files = {}
        names = r.sample(NAMES, r.randint(1, 3))
        files["config/values.yml"] = (
            "#@data/values\n---\n" f"replicas: {r.randint(1, 5)}\n" f"names: {names}\n"
            f"team: {r.choice(['a', 'b'])}\n" f"sidecar: {r.choice(['true', 'false'])}\n")
        files["config/" + r.choice(["app.yml", "zz-app.yml", "a/app.yml"])] = (
            '#@ load("@ytt:data", "data")\n'
            "#@ for name in data.values.names:\n---\nkind: Deployment\nmetadata:\n"
            "  name: #@ name\nspec:\n  replicas: #@ data.values.replicas\n  containers:\n"
            "  - name: app\n    image: app:1\n#@ end\n---\nkind: Service\nmetadata:\n"
            "  name: svc\nspec:\n  ports: [80]\n")
        ov = ['#@ load("@ytt:overlay", "overlay")', '#@ load("@ytt:data", "data")',
              '#@ load("@ytt:yaml", "yaml")',
              '#@overlay/match by=overlay.subset({"kind": "Deployment"}), expects="1+"', "---",
              "metadata:", "  #@overlay/match missing_ok=True", "  labels:",
              "    team: #@ data.values.team", "#@ if data.values.sidecar:",
              '#@overlay/match by=overlay.subset({"metadata": {"name": data.values.names[0]}})',
              "---", "spec:", "  containers:", "  #@overlay/append", "  - name: sidecar",
              "#@ end"]
        if self.chance(0.5):
            self.overlay_doc(ov)
        files["config/" + r.choice(["overlays/ov.yml", "00-ov.yml", "ov.yml"])] = "\n".join(ov) + "\n"
        if self.chance(0.3):
            files["flags"] = r.choice(["-v team=c", "--data-value-yaml replicas=9",
                                        "--data-value-yaml sidecar=false"])
        return files

    def case(self):
        r = self.r
        if self.chance(0.2):
            return self.config_dir()
        if self.chance(0.15):
            return {"apply.yml": self.apply_file()}
        if self.chance(0.15):
            return {"value.yml": self.apply_value_file()}
        if self.chance(0.15):
            return {"shared.yml": self.shared_fragment_file()}
        if self.chance(0.1):
            # overlays in the same file as the documents they change
            return {"mixed.yml": self.template_file() + self.overlay_file()}
        files = {}
        nleft = 1 if self.chance(0.8) else 2
        self.one_left_file = nleft == 1
        for i in range(nleft):
            files[f"t{i}.yml"] = self.template_file()
        for i in range(r.randint(1, 2)):
            files[f"o{i}.yml"] = self.overlay_file()
        return files


def main():
    hintkit, ytt, count, seed, show = options()
    rnd = random.Random(seed)
    agree = silent = ok = unstable = 0
    bad = []
    for n in range(count):
        files = Gen(rnd).case()
        with tempfile.TemporaryDirectory() as tmp:
            write_files(tmp, {n: t for n, t in files.items() if n != "flags"})
            argv = []
            for name, text in files.items():  # in the case's order
                if name == "flags":
                    argv += text.split()
                elif "/" not in name:
                    argv += ["-f", name]
            if any(name.startswith("config/") for name in files):
                argv += ["-f", "config/"]
            r = run([ytt] + argv, tmp)
            h = run([hintkit, "values"] + argv, tmp)
            # ytt keeps the documents of several template files in a Go map: the order that
            # matchers' indexes, or_add, append and the first error see changes from run to run
            several = sum(1 for name in files if name.startswith("t")) > 1
            if several and any(run([ytt] + argv, tmp) != r for _ in range(3)):
                unstable += 1
                continue
        ok += r[0] == 0
        same = r[0] == h[0] and r[1] == h[1] and normalise(r[2], "ytt") == normalise(h[2], "hintkit")
        # where ytt panics, hintkit refuses (exit 2): that counts as agreeing
        if same or (r[2].startswith("panic:") and h[0] == 2 and "crashes" in h[2]):
            agree += 1
            continue
        if h[0] == 0 and (r[0] != 0 or r[1] != h[1]):
            silent += 1
        bad.append((n, files, r, h))
    for n, files, r, h in bad[:show]:
        print(f"=== case {n} (ytt rc {r[0]}, hintkit rc {h[0]})")
        for name, text in files.items():
            print(f"--- {name}")
            print(text, end="")
        print("--- ytt")
        print(r[1][:1500] + r[2][:1500])
        print("--- hintkit")
        print(h[1][:1500] + h[2][:1500])
    count -= unstable
    print(f"overlays: {count} cases (seed {seed}, {ok} where ytt succeeds, {unstable} more where "
          f"ytt's own answer changes from run to run), {agree} agree ({100.0 * agree / max(count, 1):.1f}%), "
          f"{silent} silent wrong answers (hintkit exit 0, different from ytt)")


if __name__ == "__main__":
    main()
