// Table tests for the scanner, parser and resolver: what compiles, and the exact message and
// 1-based position of what does not (texts recorded from ytt v0.48.0).
#include <gtest/gtest.h>

#include "starlark/starlark.h"

namespace hintkit::starlark {
namespace {

struct CompileCase {
  std::string_view src;
  std::string_view want;  // "" = compiles
  int line = 0;
};

TEST(Syntax, CompileErrorsMatchYtt) {
  const CompileCase cases[] = {
      {"def f(x):\n  return x\nend\n", ""},
      {"def f(x): return x\n", ""},
      {"x = 1; y = 2\n", ""},
      {"if True:\nx = 1\nelif False:\nx = 2\nelse:\nx = 3\nend\n", ""},
      {"def f(x):\n  return x\n",
       "mismatched set of block openings (if/else/elif/for/def) and closing (end)", 1},
      {"def f():\n  pass\nend\n", "use of reserved keyword 'pass' is not allowed", 2},
      {"end = 1\n", "unexpected end", 1},
      {"endpoint = 1\n", ""},
      {"l = [1]\ndel l[0]\n", "got illegal token, want primary expression", 2},
      {"x = 1_000\n", "got identifier, want newline", 1},
      {"x = 1 < 2 < 3\n", "< does not associate with < (use parens)", 1},
      {"x = 1 == 2 != 3\n", "== does not associate with != (use parens)", 1},
      {"x = \"a\" \"b\"\n", "got string literal, want newline", 1},
      {"x = 2 ** 3\n", "got '**', want newline", 1},
      {"x = [1, 2\n", "got end of file, want ']'", 2},
      {"x = \"abc\n", "unexpected newline in string", 1},
      {"x = 017\n", "obsolete form of octal literal; use 0o17", 1},
      {"x = \"\\777\"\n", "invalid escape sequence \\777", 1},  // an octal escape past 255
      {"x = \"\\4000\"\n", "invalid escape sequence \\400", 1},  // three digits at most
      {"x = )\n", "unexpected ')'", 1},
      {"if True\n  x = 1\nend\n", "got newline, want ':'", 2},  // ytt: the next line
      {"x = if\n", "got if, want primary expression", 1},
      {"def f(a, a):\n  return 1\nend\n", "duplicate parameter: a", 1},
      {"def f(a, b=1, c):\n  return 1\nend\n", "required parameter may not follow optional", 1},
      {"break\n", "break not in a loop", 1},
      {"return 1\n", "return statement not within a function", 1},
      {"def f():\n  load('x.star', 'y')\nend\n", "load statement within a function", 2},
      {"out = z\nz = 1\n", "undefined: z", 1},
      {"f(x=1, x=2)\n", "keyword argument x repeated", 1},
      {"def f(): return g()\ndef g(): return 1\n", ""},
      {"f = lambda: later\nlater = 1\n", ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.src);
    CompileOptions opts;
    opts.predeclared = {"f"};
    auto p = compile("t.star", c.src, c.want == "f(x=1, x=2)\n" ? opts : opts);
    if (c.want.empty()) {
      EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().to_string());
      continue;
    }
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().message, c.want);
    EXPECT_EQ(p.error().problems.front().pos.line, c.line);
  }
}

TEST(Syntax, PositionsAreOneBased) {
  auto p = compile("t.star", "x = 1\ny = (\n  2 +\n  nope)\n");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().problems[0].pos, (diag::Position{4, 3}));
  EXPECT_EQ(p.error().problems[0].file, "t.star");
}

struct HintCase {
  std::string_view message, line, want;
};

TEST(Syntax, YttHints) {
  const HintCase cases[] = {
      {"undefined: null", "",
       "undefined: null (hint: use 'None' instead of 'null' to indicate no value)"},
      {"undefined: true", "",
       "undefined: true (hint: use 'True' instead of 'true' for boolean assignment)"},
      {"undefined: x", "", "undefined: x"},
      {"unknown binary op: bool | bool", "",
       "unknown binary op: bool | bool (hint: use 'or' instead of '|' for logical-or)"},
      {"unknown binary op: string & int", "",
       "unknown binary op: string & int (hint: use 'and' instead of '&' for logical-and)"},
      {"got '&', want primary expression", "if a && b:",
       "got '&', want primary expression (hint: use 'and' instead of '&&' for logical-and)"},
      {"got '&', want primary expression", "v = &123", "got '&', want primary expression"},
      {"got newline, want ':'", "",
       "got newline, want ':' (hint: missing colon at the end of 'if/for/def' statement?)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.message);
    EXPECT_EQ(with_ytt_hint(c.message, c.line), c.want);
  }
}

}  // namespace
}  // namespace hintkit::starlark
