#!/usr/bin/env python3
"""Differential check of gocompat's math against Go's own math package, bit for bit.

`@ytt:math` hands its arguments to Go's math functions; hintkit computes them with gocompat's
port (gocompat/math.cpp). This script writes a Go main of a few lines that reads "name bits
[bits]" lines and prints each result's float64 bits, builds it with the `go` on PATH (Debian's
golang, the Go the reference ytt is built with), and feeds the same lines to
build/tests/go_math. Both run on this machine, so Exp's choice of its FMA path is the same.

The arguments: random bit patterns (NaN, infinities, subnormals included), values spread over
each function's ranges and the thresholds where its algorithm changes branch (Payne-Hanek
reduction from 2**29, Stirling's formula past 33, the 0.5 / 0.625 / 21 switches of the
hyperbolic functions, Sqrt(2)/2 in Log's reduction, ...), integers and half-integers, and for
pow, bases and exponents of every sign and size.

A mismatch is a silently different number in a ytt template: the figure that must stay 0.

usage: scripts/diff_gomath.py [GO_MATH] [--count N] [--seed S] [--show K]
GO_MATH defaults to build/tests/go_math.
"""
import collections
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diffkit  # noqa: E402

GO_MAIN = r'''package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		f := strings.Fields(in.Text())
		a, _ := strconv.ParseUint(f[1], 16, 64)
		var b uint64
		if len(f) > 2 {
			b, _ = strconv.ParseUint(f[2], 16, 64)
		}
		x, y := math.Float64frombits(a), math.Float64frombits(b)
		var r float64
		switch f[0] {
		case "frexp":
			fr, e := math.Frexp(x)
			fmt.Fprintf(out, "%016x %d\n", math.Float64bits(fr), e)
			continue
		case "modf":
			i, fr := math.Modf(x)
			fmt.Fprintf(out, "%016x %016x\n", math.Float64bits(i), math.Float64bits(fr))
			continue
		case "sin":
			r = math.Sin(x)
		case "cos":
			r = math.Cos(x)
		case "tan":
			r = math.Tan(x)
		case "asin":
			r = math.Asin(x)
		case "acos":
			r = math.Acos(x)
		case "atan":
			r = math.Atan(x)
		case "atan2":
			r = math.Atan2(x, y)
		case "sinh":
			r = math.Sinh(x)
		case "cosh":
			r = math.Cosh(x)
		case "tanh":
			r = math.Tanh(x)
		case "asinh":
			r = math.Asinh(x)
		case "acosh":
			r = math.Acosh(x)
		case "atanh":
			r = math.Atanh(x)
		case "exp":
			r = math.Exp(x)
		case "log":
			r = math.Log(x)
		case "log1p":
			r = math.Log1p(x)
		case "pow":
			r = math.Pow(x, y)
		case "hypot":
			r = math.Hypot(x, y)
		case "gamma":
			r = math.Gamma(x)
		case "ldexp":
			r = math.Ldexp(x, int(int64(b)))
		}
		fmt.Fprintf(out, "%016x\n", math.Float64bits(r))
	}
}
'''

UNARY = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
         "atanh", "exp", "log", "log1p", "gamma", "frexp", "modf"]
BINARY = ["atan2", "pow", "hypot", "ldexp"]
# Where the functions change branch.
EDGES = [0.0, 0.5, 0.625, 0.66, 0.7, 1.0, 2.0, 2.414213562373095, 21.0, 33.0, 143.01608, 200.0,
         2 ** 28, 2 ** 29, 2 ** 53, 2 ** 63, 709.782712893384, 745.1332191019412, 44.014845965556525,
         0.41421356237309503, -0.2928932188134524, 1 / 2 ** 28, 1 / 2 ** 29, 1 / 2 ** 54,
         0.7071067811865476, 1.4142135623730951, math.pi, math.pi / 2, math.pi / 4, 1e-9, 1e-14]


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def value(rng):
    r = rng.random()
    if r < 0.12:
        return struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
    if r < 0.30:
        e = rng.choice(EDGES)
        e = struct.unpack("<d", struct.pack("<Q", bits(e) + rng.randint(-3, 3)))[0] if e else e
        return -e if rng.random() < 0.3 else e
    if r < 0.50:
        return rng.uniform(-4, 4)
    if r < 0.62:
        return rng.uniform(-800, 800)
    if r < 0.70:
        return float(rng.randint(-200, 200)) + rng.choice([0, 0, 0.5])
    if r < 0.80:
        return rng.choice([1, -1]) * 10 ** rng.uniform(-320, 308)
    if r < 0.88:  # Sqrt(2)/2 times a power of two: Log's reduction edge
        return 0.7071067811865476 * 2.0 ** rng.randint(-1070, 1000)
    return rng.uniform(-1.2, 1.2)


def cases(rng, count):
    out = []
    for _ in range(count):
        fn = rng.choice(UNARY + BINARY)
        x = value(rng)
        if fn == "ldexp":
            out.append(f"{fn} {bits(x):016x} {rng.randint(-1300, 1300) & 0xFFFFFFFFFFFFFFFF:016x}")
        elif fn in BINARY:
            y = value(rng)
            if fn == "pow" and rng.random() < 0.3:
                y = float(rng.randint(-70, 70)) + rng.choice([0, 0, 0.5, 0.25])
            out.append(f"{fn} {bits(x):016x} {bits(y):016x}")
        else:
            out.append(f"{fn} {bits(x):016x}")
    return out


def main():
    args = sys.argv[1:]
    opts = diffkit.number_flags(args, {"--count": 200000, "--seed": 1, "--show": 5})
    ours = args[0] if args else "build/tests/go_math"
    rng = random.Random(opts["--seed"])
    lines = cases(rng, opts["--count"])
    text = "\n".join(lines) + "\n"
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "main.go"), "w") as f:
            f.write(GO_MAIN)
        exe = os.path.join(tmp, "gomath")
        env = dict(os.environ, GO111MODULE="off", GOPATH=tmp, GOCACHE=os.path.join(tmp, "cache"))
        subprocess.run(["go", "build", "-o", exe, "main.go"], cwd=tmp, env=env, check=True)
        want = subprocess.run([exe], input=text.encode(), capture_output=True, check=True).stdout
    got = subprocess.run([ours], input=text.encode(), capture_output=True, check=True).stdout
    want, got = want.decode().splitlines(), got.decode().splitlines()
    if len(want) != len(lines) or len(got) != len(lines):
        sys.exit(f"expected {len(lines)} results, got {len(want)} from Go, {len(got)} from {ours}")
    per = collections.Counter()
    bad = collections.Counter()
    shown = 0
    for line, w, g in zip(lines, want, got):
        fn = line.split()[0]
        per[fn] += 1
        if w != g:
            bad[fn] += 1
            if shown < opts["--show"]:
                shown += 1
                print(f"differs: {line}: go {w}, hintkit {g}")
    same = len(lines) - sum(bad.values())
    print(f"gomath: {len(lines)} calls (seed {opts['--seed']}), {same} same bits "
          f"({100.0 * same / max(len(lines), 1):.3f}%), {sum(bad.values())} differ")
    for fn in sorted(per):
        if bad[fn]:
            print(f"  {fn}: {bad[fn]} of {per[fn]} differ")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
