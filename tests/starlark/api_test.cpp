// The embedding API: compile/exec, globals, calling values, host builtins, load hook, frozen
// modules, error frames and the ytt-style backtrace, and the runaway-program limits.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <regex>

#include "diag/stack.h"
#include "starlark/starlark.h"

namespace hintkit::starlark {
namespace {

Module run_ok(std::string_view src, const Predeclared& pre = {}) {
  auto r = exec_file("test.star", src, pre);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
  return r.ok() ? std::move(r.value()) : Module{};
}

Error run_err(std::string_view src, ThreadOptions opts = {}) {
  auto r = exec_file("test.star", src, {}, std::move(opts));
  EXPECT_FALSE(r.ok());
  return r.ok() ? Error{} : r.error();
}

TEST(Api, GlobalsAreReadableFromTheHost) {
  Module m = run_ok("a = 1\nb = [1, 'x', None]\nc = {'k': 2.5}\nd = 1 << 70\n");
  EXPECT_EQ(m.get("a")->kind(), Kind::kInt);
  EXPECT_EQ(m.get("a")->to_int64(), 1);
  Value b = *m.get("b");
  ASSERT_EQ(b.kind(), Kind::kList);
  ASSERT_EQ(b.len(), 3u);
  EXPECT_EQ(b.items()[1].as_string(), "x");
  EXPECT_TRUE(b.items()[2].is_none());
  Value c = *m.get("c");
  EXPECT_EQ(c.dict_get(Value::from_string("k"))->as_float(), 2.5);
  EXPECT_EQ(m.get("d")->int_text(), "1180591620717411303424");
  EXPECT_FALSE(m.get("d")->to_int64().has_value());
  EXPECT_FALSE(m.get("nope").has_value());
}

TEST(Api, CallsFunctionsWithArgsAndKwargs) {
  Module m = run_ok("def f(a, b=2, *rest, **kw):\n  return [a, b, rest, kw]\nend\n");
  Thread t;
  Value args[] = {Value::from_int(1), Value::from_int(5), Value::from_int(6)};
  Kwarg kwargs[] = {{"z", Value::from_string("q")}};
  auto r = t.call(*m.get("f"), args, kwargs);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->repr(), "[1, 5, (6,), {\"z\": \"q\"}]");
}

TEST(Api, HostBuiltinsReceiveArgsAndReportErrors) {
  Value twice = make_builtin("twice", [](const Call& c) -> Result<Value> {
    if (c.args.size() != 1 || !c.args[0].is(Kind::kInt)) return fail_error("twice: want an int");
    return Value::from_int(*c.args[0].to_int64() * 2);
  });
  Module m = run_ok("x = twice(21)\n", {{"twice", twice}});
  EXPECT_EQ(m.get("x")->to_int64(), 42);
  auto r =
      exec_file("test.star", "def g():\n  return twice('a')\nend\nx = g()\n", {{"twice", twice}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "twice: want an int");
  ASSERT_EQ(r.error().frames.size(), 2u);
  EXPECT_EQ(r.error().frames[0].function, "g");
  EXPECT_EQ(r.error().frames[0].pos.line, 2);
  EXPECT_EQ(r.error().frames[1].function, "<toplevel>");
  EXPECT_EQ(r.error().frames[1].pos.line, 4);
}

TEST(Api, StructsExposeFields) {
  Value s = make_struct("struct", "", {{"b", Value::from_int(2)}, {"a", Value::from_int(1)}});
  Module m = run_ok("x = s.a + s.b\ny = dir(s)\nz = str(s)\nt = type(s)\n", {{"s", s}});
  EXPECT_EQ(m.get("x")->to_int64(), 3);
  EXPECT_EQ(m.get("y")->repr(), "[\"a\", \"b\"]");
  EXPECT_EQ(m.get("z")->str(), "struct(...)");  // ytt hides fields
  EXPECT_EQ(m.get("t")->str(), "struct");
}

TEST(Api, UndeclaredPredeclaredNamesAreCompileErrors) {
  auto p = compile("test.star", "x = host_value + 1\n");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().kind, ErrorKind::kCompile);
  EXPECT_EQ(p.error().message, "undefined: host_value");
  EXPECT_EQ(p.error().problems[0].pos, (diag::Position{1, 5}));
  CompileOptions opts;
  opts.predeclared = {"host_value"};
  auto q = compile("test.star", "x = host_value + 1\n", opts);
  ASSERT_TRUE(q.ok());
  Thread t;
  auto m = t.exec(*q, {{"host_value", Value::from_int(1)}});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->get("x")->to_int64(), 2);
}

TEST(Api, ResolverReportsEveryUndefinedName) {
  auto p = compile("t.star", "def f():\n  return a + b\nend\nx = lambda: c\n");
  ASSERT_FALSE(p.ok());
  ASSERT_EQ(p.error().problems.size(), 3u);
  EXPECT_EQ(p.error().problems[0].message, "undefined: a");
  EXPECT_EQ(p.error().problems[1].message, "undefined: b");
  EXPECT_EQ(p.error().problems[2].message, "undefined: c");
  EXPECT_EQ(p.error().problems[2].pos.line, 4);
}

TEST(Api, LoadGoesThroughTheHostHook) {
  ThreadOptions opts;
  opts.load = [](Thread& t, std::string_view module) -> Result<Module> {
    if (module != "lib.star") return fail_error("cannot load " + std::string(module));
    auto p = compile("lib.star", "def double(x):\n  return 2 * x\nend\n_hidden = 1\n");
    if (!p.ok()) return p.error();
    return t.exec(*p);
  };
  auto r = exec_file("main.star",
                     "load('lib.star', 'double', d2='double')\nx = double(2) + d2(3)\n", {}, opts);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->get("x")->to_int64(), 10);

  struct Case {
    std::string_view src, want;
  };
  const Case cases[] = {
      {"load('lib.star', '_hidden')\n",
       "load: names with leading underscores are not exported: _hidden"},
      {"load('lib.star', 'nope')\n", "load: name nope not found in module lib.star"},
      {"load('other.star', 'x')\n", "cannot load other.star"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.src);
    auto e = exec_file("main.star", c.src, {}, opts);
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().message, c.want);
  }
}

TEST(Api, ModuleGlobalsAreFrozenAfterExec) {
  Module m = run_ok(
      "cache = []\ndef remember(x):\n  cache.append(x)\n  return len(cache)\nend\n"
      "ok = remember(1)\n");
  EXPECT_EQ(m.get("ok")->to_int64(), 1);  // mutation during exec is fine
  Thread t;
  Value arg = Value::from_int(2);
  auto r = t.call(*m.get("remember"), std::span<const Value>(&arg, 1));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "append: cannot append to frozen list");
  ASSERT_EQ(r.error().frames.size(), 1u);
  EXPECT_EQ(r.error().frames[0].function, "remember");
  EXPECT_EQ(r.error().frames[0].pos.line, 3);
  EXPECT_FALSE(list_append(*m.get("cache"), Value()).ok());
}

TEST(Api, FrozenValuesReportYttMessages) {
  Module m = run_ok(
      "l = [1]\nd = {'a': 1}\n"
      "def set_item(): l[0] = 2\ndef insert(): d['b'] = 1\ndef pop(): d.pop('a')\n"
      "def extend(): l.extend([1])\ndef lpop(): l.pop()\ndef clear(): d.clear()\n"
      "def setdefault(): d.setdefault('z', 1)\ndef lclear(): l.clear()\n"
      "def linsert(): l.insert(0, 1)\ndef remove(): l.remove(1)\ndef popitem(): d.popitem()\n"
      "def append(): l.append(1)\ndef update(): d.update({})\n");
  struct Case {
    std::string_view fn, want;
  };
  const Case cases[] = {
      {"set_item", "cannot assign to element of frozen list"},
      {"insert", "cannot insert into frozen hash table"},
      {"pop", "pop: cannot delete from frozen hash table"},
      {"extend", "extend: cannot extend frozen list"},
      {"lpop", "pop: cannot pop from frozen list"},
      {"clear", "cannot clear frozen hash table"},
      {"setdefault", "setdefault: cannot insert into frozen hash table"},
      {"lclear", "clear: cannot clear frozen list"},
      {"linsert", "insert: cannot insert into frozen list"},
      {"remove", "remove: cannot remove from frozen list"},
      {"popitem", "popitem: cannot delete from frozen hash table"},
      {"append", "append: cannot append to frozen list"},
      {"update", ""},
  };
  Thread t;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.fn);
    auto r = t.call(*m.get(c.fn));
    if (c.want.empty()) {
      EXPECT_TRUE(r.ok());
    } else {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.error().message, c.want);
    }
  }
}

TEST(Api, BacktraceFormatsLikeYtt) {
  std::string src =
      "def safe_div(a, b):\n  return a // b\nend\n\ndef helper(x):\n"
      "  return safe_div(10, x)\nend\nv = helper(0)\n";
  Error e = run_err(src);
  EXPECT_EQ(e.message, "floored division by zero");
  auto lines = [&](std::string_view, int line) {
    size_t start = 0;
    for (int i = 1; i < line; ++i) start = src.find('\n', start) + 1;
    return src.substr(start, src.find('\n', start) - start);
  };
  EXPECT_EQ(format_backtrace(e, lines, "    ", [](const Frame&) { return false; }),
            "    in safe_div\n"
            "      2 |   return a // b\n"
            "    in helper\n"
            "      6 |   return safe_div(10, x)\n"
            "    in <toplevel>\n"
            "      8 | v = helper(0)\n");
}

TEST(Api, HostBuildsValues) {
  auto d = make_dict({{Value::from_string("a"), make_list({Value::from_int(1)})}});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->repr(), "{\"a\": [1]}");
  EXPECT_FALSE(make_dict({{make_list({}), Value()}}).ok());
  auto s = make_set({Value::from_int(1), Value::from_int(1)});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->len(), 1u);
  EXPECT_EQ(make_tuple({Value::from_bool(true)}).repr(), "(True,)");
  EXPECT_EQ(Value::parse_int("123456789012345678901234567890")->int_text(),
            "123456789012345678901234567890");
  EXPECT_EQ(Value::from_float(0.1).str(), "0.1");
}

// ---- Limits ----------------------------------------------------------------------------------

struct LimitCase {
  std::string_view name, src, want;
};

// "Fast" is counted in evaluation steps, not in seconds: every runaway program stops within the
// thread's step budget (a wall-clock bound would fail on a loaded machine and pass on a broken
// limit that happens to run on a fast one).
TEST(Limits, RunawayProgramsStopWithAClearErrorWithinTheStepBudget) {
  const LimitCase cases[] = {
      {"while-true", "x = 0\nwhile True:\n  x += 1\nend\n", "too many steps"},
      {"deep-recursion", "def f(n):\n  return f(n + 1)\nend\nf(0)\n", "maximum depth"},
      {"mutual-recursion", "def a(n):\n  return b(n)\nend\ndef b(n):\n  return a(n)\nend\na(0)\n",
       "maximum depth"},
      {"string-doubling", "s = 'ab'\nfor i in range(100):\n  s = s + s\nend\n", "string too large"},
      {"string-repeat", "s = 'ab' * 100000000\n", "string too large"},
      {"list-doubling", "l = [1]\nfor i in range(100):\n  l = l + l\nend\n",
       "collection too large"},
      {"list-repeat", "l = [1, 2] * 100000000\n", "collection too large"},
      {"append-loop", "l = []\nfor i in range(100000000):\n  l.append(i)\nend\n",
       "too many steps|collection too large"},
      {"comprehension", "l = [i for i in range(100000000)]\n",
       "too many steps|collection too large"},
      {"big-int", "x = 2\nfor i in range(100):\n  x = x * x\nend\n", "int too large"},
      {"sorted-callback", "def k(x):\n  return k(x)\nend\nsorted([1, 2], key=k)\n",
       "maximum depth"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    // Hosts run programs on a big stack, where the depth limit is what stops them.
    diag::run_with_big_stack([&] {
      auto program = compile("test.star", c.src);
      ASSERT_TRUE(program.ok()) << program.error().to_string();
      Thread thread;
      auto r = thread.exec(*program);
      ASSERT_FALSE(r.ok());
      const Error& e = r.error();
      EXPECT_EQ(e.kind, ErrorKind::kLimit) << e.to_string();
      EXPECT_TRUE(std::regex_search(e.message, std::regex(std::string(c.want)))) << e.message;
      EXPECT_GT(thread.steps(), 0);
      // The step that crosses the budget is counted, then evaluation stops.
      EXPECT_LE(thread.steps(), thread.options().limits.max_steps + 1);
    });
  }
}

TEST(Limits, AreConfigurablePerThread) {
  ThreadOptions opts;
  opts.limits.max_steps = 100;
  Error e = run_err("for i in range(1000):\n  x = i\nend\n", opts);
  EXPECT_EQ(e.kind, ErrorKind::kLimit);
  opts.limits = Limits{};
  opts.limits.max_call_depth = 5;
  e = run_err("def f(n):\n  return 0 if n == 0 else f(n - 1)\nend\nf(10)\n", opts);
  EXPECT_EQ(e.kind, ErrorKind::kLimit);
  EXPECT_EQ(e.frames.size(), 6u);
}

TEST(Limits, DeeplyNestedValuesDoNotCrash) {
  // Building and dropping a 100k-deep list must not overflow the C++ stack.
  Module m = run_ok("x = []\nfor i in range(100000):\n  x = [x]\nend\n");
  EXPECT_EQ(m.get("x")->len(), 1u);
  // Printing it recurses once per level: on a big stack it prints, as in ytt...
  diag::run_with_big_stack([] {
    Module printed = run_ok("x = []\nfor i in range(100000):\n  x = [x]\nend\ny = len(str(x))\n");
    EXPECT_EQ(printed.get("y")->to_int64(), 200002);
  });
  // ...and on a small one (the test's main thread) it stops before the stack runs out.
  Error e = run_err("x = []\nfor i in range(100000):\n  x = [x]\nend\ny = str(x)\n");
  EXPECT_EQ(e.kind, ErrorKind::kLimit);
  // The message names what stopped it: the stack, not the limit.
  EXPECT_EQ(e.message.rfind("value is nested more than ", 0), 0u) << e.message;
  EXPECT_NE(e.message.find(" levels deep to print: the thread's "), std::string::npos) << e.message;
  EXPECT_NE(e.message.find(" MiB stack ran out"), std::string::npos) << e.message;
}

TEST(Limits, RecursionAsDeepAsYttAllowsWorksOnABigStack) {
  // ytt (Go, growable stack) evaluates this; so must a host that runs on a big stack.
  diag::run_with_big_stack([] {
    Module m = run_ok(
        "def f(n):\n  return 0 if n == 0 else 1 + f(n - 1)\nend\nx = f(10000)\ny = f(49000)\n");
    EXPECT_EQ(m.get("x")->to_int64(), 10000);
    EXPECT_EQ(m.get("y")->to_int64(), 49000);
    Error e = run_err("def f(n):\n  return 0 if n == 0 else 1 + f(n - 1)\nend\nx = f(50000)\n");
    EXPECT_EQ(e.kind, ErrorKind::kLimit);
    EXPECT_EQ(e.message, "Starlark call stack exceeded the maximum depth (50000)");
  });
}

TEST(Limits, ADepthLimitStackKeepsTenFramesAtEachEnd) {
  diag::run_with_big_stack([] {
    Error e = run_err("def f(n):\n  return f(n + 1)\nend\nf(0)\n");
    ASSERT_EQ(e.kind, ErrorKind::kLimit);
    // 50,000 calls of f and the top level: ten innermost, one gap, ten outermost.
    ASSERT_EQ(e.frames.size(), 2 * kFramesKeptAtEachEnd + 1);
    const Frame& gap = e.frames[kFramesKeptAtEachEnd];
    EXPECT_EQ(gap.left_out, 50001 - 2 * kFramesKeptAtEachEnd);
    EXPECT_EQ(e.frames.front().function, "f");
    EXPECT_EQ(e.frames.back().function, "<toplevel>");
    EXPECT_EQ(e.frames.back().pos.line, 4);
    EXPECT_NE(e.to_string().find("\n  (49981 more calls left out)\n  test.star:2:"),
              std::string::npos);
  });
}

TEST(Limits, ALimitHitDeepInTheStackKeepsTenFramesAtEachEnd) {
  // Not the depth limit: the step budget runs out 301 calls deep, in a loop.
  ThreadOptions opts;
  opts.limits.max_steps = 100000;
  Error e = run_err(
      "def f(n):\n  if n == 300:\n    for i in range(1000000):\n      x = i\n    end\n  end\n"
      "  return f(n + 1)\nend\nf(0)\n",
      opts);
  ASSERT_EQ(e.kind, ErrorKind::kLimit) << e.to_string();
  EXPECT_EQ(e.message.rfind("Starlark computation cancelled: too many steps", 0), 0u);
  ASSERT_EQ(e.frames.size(), 2 * kFramesKeptAtEachEnd + 1);
  EXPECT_EQ(e.frames[kFramesKeptAtEachEnd].left_out, 302 - 2 * kFramesKeptAtEachEnd);
  EXPECT_EQ(e.frames.front().function, "f");
  EXPECT_EQ(e.frames.front().pos.line, 4);
  EXPECT_EQ(e.frames[1].function, "f");
  EXPECT_EQ(e.frames[1].pos.line, 7);
  EXPECT_EQ(e.frames.back().function, "<toplevel>");
  EXPECT_EQ(e.frames.back().pos.line, 9);
}

TEST(Limits, ADepthLimitStackIsTheStackOfTheHostCallThatHitIt) {
  // A host builtin calls back into Starlark: the depth limit hit in the callback lists the
  // callback's calls; the builtin's caller sees its own stack only.
  std::optional<Error> inner;
  Value call_back = make_builtin("call_back", [&](const Call& c) -> Result<Value> {
    auto r = c.thread.call(c.args[0], {});
    if (r.ok()) return r;
    inner = r.error();
    return r.error();
  });
  diag::run_with_big_stack([&] {
    auto r = exec_file("test.star",
                       "def inner(n):\n  return inner(n + 1)\nend\n"
                       "def outer():\n  return call_back(lambda: inner(0))\nend\nx = outer()\n",
                       {{"call_back", call_back}});
    ASSERT_FALSE(r.ok());
    const Error& e = r.error();
    EXPECT_EQ(e.kind, ErrorKind::kLimit);
    EXPECT_EQ(e.message, "Starlark call stack exceeded the maximum depth (50000)");
    ASSERT_EQ(e.frames.size(), 2u) << e.to_string();
    EXPECT_EQ(e.frames[0].function, "outer");
    EXPECT_EQ(e.frames[0].pos.line, 5);
    EXPECT_EQ(e.frames[1].function, "<toplevel>");
    // In the callback: outer and the lambda took two of the 50,000 calls.
    ASSERT_TRUE(inner.has_value());
    ASSERT_EQ(inner->frames.size(), 2 * kFramesKeptAtEachEnd + 1);
    EXPECT_EQ(inner->frames[kFramesKeptAtEachEnd].left_out, 49999 - 2 * kFramesKeptAtEachEnd);
    EXPECT_EQ(inner->frames.front().function, "inner");
    EXPECT_EQ(inner->frames[2 * kFramesKeptAtEachEnd - 1].function, "inner");
    EXPECT_EQ(inner->frames.back().function, "lambda");
    EXPECT_EQ(inner->frames.back().pos.line, 5);
  });
}

TEST(Limits, OtherErrorsListEveryFrame) {
  // A runtime error 30 calls deep lists all 30 calls and the top level, as ytt does.
  Error e = run_err("def f(n):\n  return 1 // 0 if n == 0 else f(n - 1)\nend\nf(29)\n");
  EXPECT_EQ(e.kind, ErrorKind::kRuntime);
  ASSERT_EQ(e.frames.size(), 31u);
  for (const Frame& f : e.frames) EXPECT_EQ(f.left_out, 0u);
}

TEST(Limits, RecursionOnASmallStackStopsBeforeItOverflows) {
  // The test's main thread has a few MiB of stack: far less than kMaxCallDepth calls need.
  Error e = run_err("def f(n):\n  return 0 if n == 0 else 1 + f(n - 1)\nend\nx = f(90000)\n");
  EXPECT_EQ(e.kind, ErrorKind::kLimit);
  EXPECT_EQ(e.message.rfind("Starlark call stack exceeded at depth ", 0), 0u) << e.message;
  EXPECT_NE(e.message.find(" MiB stack ran out before the limit of 50000 calls"), std::string::npos)
      << e.message;
}

TEST(Limits, ValuesThatContainThemselvesPrintAsStarlarkGoPrintsThem) {
  Module m = run_ok(
      "a = [1]\na.append(a)\nd = {'k': 1}\nd['self'] = d\nt = (a, d)\n"
      "x = str(a)\ny = repr(d)\nz = str(t)\n");
  EXPECT_EQ(m.get("x")->as_string(), "[1, [...]]");
  EXPECT_EQ(m.get("y")->as_string(), "{\"k\": 1, \"self\": {...}}");
  EXPECT_EQ(m.get("z")->as_string(), "([1, [...]], {\"k\": 1, \"self\": {...}})");
}

TEST(Limits, PrintingStopsAtTheStringLimit) {
  // One 16 MB string held ten times would print as 160 MB.
  Error e = run_err("s = 'x' * 16000000\ny = str([s] * 10)\n");
  EXPECT_EQ(e.kind, ErrorKind::kLimit);
  EXPECT_NE(e.message.find("string too large"), std::string::npos) << e.message;
}

// Step counts, not seconds: string and list work is charged by size.
Error run_counting(std::string_view src, int64_t* steps, ThreadOptions opts = {}) {
  auto program = compile("test.star", src);
  EXPECT_TRUE(program.ok());
  if (!program.ok()) return program.error();
  Thread thread(std::move(opts));
  auto r = thread.exec(*program);
  EXPECT_FALSE(r.ok());
  *steps = thread.steps();
  return r.ok() ? Error{} : r.error();
}

TEST(Limits, StringWorkIsChargedByItsSize) {
  int64_t steps = 0;
  // One replace over 16 MB reads and builds 16 MB: about two million steps, so a hundred of
  // them stop at the step limit after a handful (they used to be one step each).
  Error e = run_counting(
      "s = 'a' * 16000000\nfor i in range(100):\n  t = s.replace('a', 'b')\nend\n", &steps);
  EXPECT_EQ(e.kind, ErrorKind::kLimit);
  EXPECT_NE(e.message.find("too many steps"), std::string::npos) << e.message;
  EXPECT_LE(steps, kMaxSteps + static_cast<int64_t>(16000000 / kBytesPerStep));
  // A short loop of the same work fits, and its count shows the charge.
  auto program = compile("test.star", "s = 'a' * 1600000\nt = s.replace('a', 'b')\n");
  ASSERT_TRUE(program.ok());
  Thread thread;
  ASSERT_TRUE(thread.exec(*program).ok());
  EXPECT_GE(thread.steps(), static_cast<int64_t>(3 * 1600000 / kBytesPerStep));
}

TEST(Limits, CollectionsFromStringsAreSizeCheckedBeforeBuilding) {
  for (const char* method : {"elems()", "elem_ords()", "codepoints()", "codepoint_ords()",
                             "split('x')", "split()", "splitlines()"}) {
    SCOPED_TRACE(method);
    // 10 MB whose pieces (bytes, code points, fields, lines) number 5 million or more.
    std::string unit = std::string(method) == "splitlines()" ? "x\\n" : "x ";
    // elems() and the like are lazy views (as in starlark-go): list() iterates them.
    bool lazy = std::string(method).find("split") == std::string::npos;
    std::string call = std::string("s.") + method;
    std::string src =
        "s = '" + unit + "' * 5000000\nl = " + (lazy ? "list(" + call + ")" : call) + "\n";
    int64_t steps = 0;
    Error e = run_counting(src, &steps);
    EXPECT_EQ(e.kind, ErrorKind::kLimit);
    EXPECT_NE(e.message.find("collection too large"), std::string::npos) << e.message;
    // Building the string and reading it cost 1,250,000 steps (list() one more); the refused
    // list adds nothing.
    EXPECT_EQ(steps, lazy ? 1'250'004 : 1'250'003);
  }
}

TEST(Limits, BuiltinsAreChargedForTheStringsTheyRead) {
  // hash() read 16 MiB for one step: a hundred of them ran past ten seconds. Now it is charged
  // like a string method, a step per kBytesPerStep bytes of its argument.
  auto program = compile("test.star", "s = 'a' * 1600000\nh = hash(s)\n");
  ASSERT_TRUE(program.ok());
  Thread thread;
  ASSERT_TRUE(thread.exec(*program).ok());
  EXPECT_GE(thread.steps(), static_cast<int64_t>(2 * 1600000 / kBytesPerStep));
  // int() of a long digit string is refused by its length, before the quadratic parse.
  int64_t steps = 0;
  Error e = run_counting("n = int('1' * 1000000)\n", &steps);
  EXPECT_EQ(e.kind, ErrorKind::kLimit);
  EXPECT_NE(e.message.find("int too large: about 3321928 bits exceeds the limit of 32768"),
            std::string::npos)
      << e.message;
}

TEST(Limits, LiveStringsHaveAMemoryBudget) {
  // 200 distinct 16 MB strings would hold 3.2 GB. With steps to spare, the memory budget stops
  // them; by default the step charge stops them even sooner.
  const char* src = "l = []\nfor i in range(200):\n  l.append(('x' * 16000000) + str(i))\nend\n";
  ThreadOptions opts;
  opts.limits.max_steps = int64_t{1} << 40;
  int64_t steps = 0;
  Error e = run_counting(src, &steps, opts);
  EXPECT_EQ(e.kind, ErrorKind::kLimit);
  EXPECT_NE(e.message.find("Starlark memory budget exceeded: live strings would hold "),
            std::string::npos)
      << e.message;
  e = run_counting(src, &steps);
  EXPECT_EQ(e.kind, ErrorKind::kLimit);
}

// A host object that says when it is freed.
class Probe : public HostObject {
 public:
  explicit Probe(bool* freed) : freed_(freed) {}
  ~Probe() override { *freed_ = true; }
  std::string_view type_name() const override { return "probe"; }

 private:
  bool* freed_;
};

TEST(Cycles, FunctionsAndTheirModuleAreFreed) {
  struct Case {
    std::string_view name, src;
  };
  const Case cases[] = {
      {"def reads a global", "keep = probe\ndef f():\n  return keep\nend\n"},
      {"recursive def", "keep = [probe]\ndef f(n):\n  return f(n - 1) if n else keep\nend\nf(3)\n"},
      {"lambda", "keep = probe\ng = lambda: keep\n"},
      {"closure holding itself",
       "def outer(h):\n  def inner():\n    return [h, inner]\n  end\n  return inner\nend\n"
       "outer(probe)\n"},
      {"list that holds its module's function", "def f():\n  return probe\nend\nl = [f]\n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    bool freed = false;
    {
      Value probe(new Probe(&freed));
      CompileOptions co;
      co.predeclared = {"probe"};
      auto program = compile("test.star", c.src, co);
      ASSERT_TRUE(program.ok()) << program.error().to_string();
      Thread thread;
      auto m = thread.exec(*program, {{"probe", probe}});
      ASSERT_TRUE(m.ok()) << m.error().to_string();
    }
    EXPECT_TRUE(freed);
  }
}

// Runs `src` with `probe()` (makes the one Probe of the run), `freed()` (whether it is gone
// yet) and `struct(**fields)` predeclared; true when the probe is gone once the thread and
// the module are. With `keep`, the module goes there instead and `*flag` (which must outlive
// it) says when the probe goes.
bool probe_freed_after(std::string_view src, Module* keep = nullptr, bool* flag = nullptr) {
  bool own = false;
  bool& freed = flag ? *flag : own;
  {
    Value probe = make_builtin(
        "probe", [&freed](const Call&) -> Result<Value> { return Value(new Probe(&freed)); });
    Value is_freed = make_builtin(
        "freed", [&freed](const Call&) -> Result<Value> { return Value::from_bool(freed); });
    Value make = make_builtin("struct", [](const Call& c) -> Result<Value> {
      std::vector<std::pair<std::string, Value>> fields;
      for (const Kwarg& k : c.kwargs) fields.emplace_back(std::string(k.name), k.value);
      return make_struct("struct", "struct", std::move(fields));
    });
    CompileOptions co;
    co.predeclared = {"probe", "freed", "struct"};
    auto program = compile("test.star", src, co);
    EXPECT_TRUE(program.ok()) << program.error().to_string();
    if (!program.ok()) return false;
    Thread thread;
    auto m = thread.exec(*program, {{"probe", probe}, {"freed", is_freed}, {"struct", make}});
    EXPECT_TRUE(m.ok()) << m.error().to_string();
    if (keep && m.ok()) {
      *keep = std::move(*m);
      return false;
    }
  }
  return freed;
}

TEST(Cycles, CyclesMadeInsideAFunctionAreFreed) {
  // Nothing outside the function's locals holds these cycles once it returns.
  struct Case {
    std::string_view name, body;
  };
  const Case cases[] = {
      {"list holding itself", "a = [probe()]\n  a.append(a)"},
      {"dict holding itself", "a = {'p': probe()}\n  a['self'] = a"},
      {"two locals holding each other", "a = [probe()]\n  b = {'a': a}\n  a.append(b)"},
      {"through a struct", "a = [probe()]\n  s = struct(a=a)\n  a.append(s)"},
      {"through a tuple", "a = [probe()]\n  t = (a, 1)\n  a.append(t)"},
      {"through a closure", "a = [probe()]\n  g = lambda: a\n  a.append(g)"},
      {"through a default", "a = [probe()]\n  def g(x=a):\n    return x\n  end\n  a.append(g)"},
      {"through a bound method", "a = [probe()]\n  a.append(a.append)"},
      {"a set holding a closure over the set",
       "p = probe()\n  def g():\n    return [s, p]\n  end\n  s = set([g])"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::string src = "def f():\n  " + std::string(c.body) + "\n  return 1\nend\nx = f()\n";
    EXPECT_TRUE(probe_freed_after(src));
  }
  // Also when the function fails after making the cycle, and when it returns the cycle to a
  // caller that drops it.
  bool freed = false;
  {
    Value probe = make_builtin(
        "probe", [&freed](const Call&) -> Result<Value> { return Value(new Probe(&freed)); });
    CompileOptions co;
    co.predeclared = {"probe"};
    auto program = compile(
        "test.star", "def f():\n  a = [probe()]\n  a.append(a)\n  return 1 // 0\nend\nf()\n", co);
    ASSERT_TRUE(program.ok());
    Thread thread;
    EXPECT_FALSE(thread.exec(*program, {{"probe", probe}}).ok());
  }
  EXPECT_TRUE(freed);
  EXPECT_TRUE(
      probe_freed_after("def mk():\n  a = [probe()]\n  a.append(a)\n  return a\nend\n"
                        "def f():\n  return len(mk())\nend\nx = f()\n"));
}

TEST(Cycles, NoModuleEnvOutlivesItsProgram) {
  // A module's functions hold its env and its globals hold the functions: the env lives while
  // the host holds the module or one of its functions, and goes at the first collection after
  // the last of them.
  const size_t before = live_modules();
  auto program = compile("m.star",
                         "def f():\n  return g\nend\ndef g():\n  return f\nend\n"
                         "h = lambda: [f, h]\n");
  ASSERT_TRUE(program.ok());
  Value kept;
  {
    Thread thread;
    auto m = thread.exec(*program);
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(live_modules(), before + 1);
    kept = *m->get("h");
  }
  EXPECT_EQ(live_modules(), before + 1);  // `h` still reaches its module
  kept = Value();
  EXPECT_EQ(live_modules(), before);
}

TEST(Cycles, AreFreedWhileTheProgramRunsOnceEnoughContainersAreMade) {
  // 5,000 containers made after the cycle is dropped: a collection at one of the calls'
  // returns frees it while the thread still runs (`freed()` sees it).
  bool freed = false;
  Module m;
  probe_freed_after(
      "def f():\n  a = [probe()]\n  a.append(a)\n  return 1\nend\nf()\nbefore = freed()\n"
      "def g(i):\n  return [i]\nend\n"
      "for i in range(5000):\n  g(i)\nend\ngone = freed()\n",
      &m, &freed);
  EXPECT_FALSE(m.get("before")->as_bool());
  EXPECT_TRUE(m.get("gone")->as_bool());
}

TEST(Cycles, ACollectionLeavesWhatIsStillReachableAlone) {
  // A cycle a global holds, and one the running loop's frame holds, survive the collections
  // that 5,000 containers bring; they go with the module.
  for (std::string_view held : {"keep = mk()\n", "keep = None\n"}) {
    SCOPED_TRACE(held);
    std::string src = "def mk():\n  a = [probe()]\n  a.append(a)\n  return a\nend\n" +
                      std::string(held) +
                      "def g(i):\n  return [i]\nend\n"
                      "def loop():\n  mine = mk() if keep == None else keep\n"
                      "  for i in range(5000):\n    g(i)\n  end\n"
                      "  return type(mine[1][1][0])\nend\n"
                      "kind = loop()\ngone = freed()\n";
    bool freed = false;
    Module m;
    probe_freed_after(src, &m, &freed);
    EXPECT_EQ(m.get("kind")->as_string(), "probe");
    EXPECT_FALSE(m.get("gone")->as_bool());
    EXPECT_TRUE(probe_freed_after(src));
  }
}

TEST(Cycles, AFunctionKeptByTheHostStillWorks) {
  Value f;
  {
    auto m = exec_file("test.star", "base = 40\ndef f(n):\n  return base + n\nend\n");
    ASSERT_TRUE(m.ok());
    f = *m->get("f");
  }  // module handle and thread gone; the host still holds f
  Thread thread;
  auto r = thread.call(f, std::vector<Value>{Value::from_int(2)});
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->to_int64(), 42);
}

TEST(Limits, DeeplyNestedSourceIsACompileError) {
  std::string src = "x = " + std::string(1000, '(') + "1" + std::string(1000, ')') + "\n";
  auto p = compile("t.star", src);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message, "nesting too deep");
}

}  // namespace
}  // namespace hintkit::starlark

namespace hintkit::starlark {
namespace {

TEST(Api, SignatureDescribesParameters) {
  struct Case {
    std::string_view src;
    int positional, required;
    bool varargs, kwargs;
    std::vector<int> accepts;  // positional counts that bind every parameter
  };
  const Case cases[] = {
      {"f = lambda v: v\n", 1, 1, false, false, {1}},
      {"f = lambda v, ctx: v\n", 2, 2, false, false, {2}},
      {"def f(v, ctx=None):\n  return v\nend\n", 2, 1, false, false, {1, 2}},
      {"def f(*args, **kw):\n  return 1\nend\n", 0, 0, true, true, {0, 1, 2, 3}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.src);
    auto m = exec_file("t.star", c.src);
    ASSERT_TRUE(m.ok());
    auto sig = signature(*m->get("f"));
    ASSERT_TRUE(sig.has_value());
    EXPECT_EQ(sig->num_positional, c.positional);
    EXPECT_EQ(sig->num_required, c.required);
    EXPECT_EQ(sig->has_varargs, c.varargs);
    EXPECT_EQ(sig->has_kwargs, c.kwargs);
    for (int n = 0; n <= 3; ++n) {
      bool want = std::find(c.accepts.begin(), c.accepts.end(), n) != c.accepts.end();
      EXPECT_EQ(sig->accepts_positional(n), want) << n;
    }
  }
  EXPECT_FALSE(signature(Value::from_int(1)).has_value());
}

}  // namespace
}  // namespace hintkit::starlark
