// The generic syntax-tree traversal (starlark/walk.h): the order children come in (the order
// the program evaluates them, which the resolver and the template-context pass rely on),
// pruning, and where an expression starts.
#include "starlark/walk.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "starlark/parser.h"

namespace hintkit::starlark {
namespace {

std::unique_ptr<File> parsed(std::string_view src) {
  std::vector<Problem> problems;
  auto f = parse("walk.star", src, problems);
  EXPECT_TRUE(problems.empty()) << problems.front().message;
  return f;
}

std::string label(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kIdent:
      return static_cast<const Ident&>(e).name;
    case ExprKind::kLiteral:
      return "lit";
    case ExprKind::kUnary:
      return "un";
    case ExprKind::kBinary:
      return "bin";
    case ExprKind::kCall:
      return "call";
    case ExprKind::kIndex:
      return "index";
    case ExprKind::kSlice:
      return "slice";
    case ExprKind::kDot:
      return "dot";
    case ExprKind::kList:
      return "list";
    case ExprKind::kTuple:
      return "tuple";
    case ExprKind::kDict:
      return "dict";
    case ExprKind::kComprehension:
      return "comp";
    case ExprKind::kLambda:
      return "lambda";
    case ExprKind::kCond:
      return "cond";
    case ExprKind::kParen:
      return "paren";
  }
  return "?";
}

std::string label(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::kExpr:
      return "expr";
    case StmtKind::kAssign:
      return "assign";
    case StmtKind::kAugAssign:
      return "aug";
    case StmtKind::kDef:
      return "def";
    case StmtKind::kIf:
      return "if";
    case StmtKind::kFor:
      return "for";
    case StmtKind::kWhile:
      return "while";
    case StmtKind::kReturn:
      return "return";
    case StmtKind::kBreak:
      return "break";
    case StmtKind::kContinue:
      return "continue";
    case StmtKind::kLoad:
      return "load";
  }
  return "?";
}

// Every node `walk` visits, in order, as space-separated labels; `prune` stops at calls.
std::string preorder(std::string_view src, bool prune = false) {
  auto f = parsed(src);
  std::string out;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : " ") + s; };
  const Block& body = f->toplevel->body;
  walk(body, Overloaded{[&](const Expr& e) {
                          add(label(e));
                          return !(prune && e.kind == ExprKind::kCall);
                        },
                        [&](const Stmt& s) {
                          add(label(s));
                          return true;
                        }});
  return out;
}

TEST(Walk, VisitsChildrenInEvaluationOrder) {
  struct Case {
    std::string_view src, want;
  };
  const Case cases[] = {
      // an assignment's right side before its target
      {"x = a + b * c\n", "assign bin a bin b c x"},
      {"x += 1\n", "aug lit x"},
      // a for loop's iterable before its variables, then its body
      {"for k, v in d.items():\n  print(k)\nend\n", "for call dot d tuple k v expr call print k"},
      // each clause's operand before its variables, the body last
      {"y = [f(i) for i in r if i > 0]\n", "assign comp r i bin i lit call f i y"},
      {"y = {k: v for k, v in p}\n", "assign comp p tuple k v k v y"},
      // a def's defaults and body before its name; a conditional's test first
      {"def g(a, b=1):\n  return a if b else None\nend\n", "def lit return cond b a None g"},
      {"z = lambda q=2: q[1:]\n", "assign lambda lit return slice q lit z"},
      {"load(\"m\", \"s\")\n", "load s"},
      {"if a:\n  b = {1: 2}\nelse:\n  c = -d\nend\n", "if a assign dict lit lit b assign un d c"},
      {"while x < 3:\n  break\nend\n", "while bin x lit break"},
      {"w = (u[0]) + (s.t, 1)\n", "assign bin paren index u lit tuple dot s lit w"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.src);
    EXPECT_EQ(preorder(c.src), c.want);
  }
}

TEST(Walk, FalseFromTheVisitorSkipsTheChildren) {
  EXPECT_EQ(preorder("x = f(a, g(b)) + c\n", /*prune=*/true), "assign bin call c x");
  EXPECT_EQ(preorder("x = f(a, g(b)) + c\n"), "assign bin call f a call g b c x");
}

TEST(Walk, StartIsTheLeftmostTokenNotTheFirstEvaluated) {
  auto f = parsed("x = (w if v else u)\ny = a.b(c)[0]\n");
  const auto& cond_stmt = static_cast<const AssignStmt&>(*f->toplevel->body[0]);
  const auto& cond = *static_cast<const ParenExpr&>(*cond_stmt.rhs).x;
  ASSERT_EQ(cond.kind, ExprKind::kCond);
  EXPECT_EQ(start_pos(cond).column, 6);       // w
  EXPECT_EQ(label(*first_child(cond)), "v");  // evaluated first
  const auto& index = *static_cast<const AssignStmt&>(*f->toplevel->body[1]).rhs;
  EXPECT_EQ(start_pos(index).line, 2);
  EXPECT_EQ(start_pos(index).column, 5);  // a
  EXPECT_EQ(first_child(*static_cast<const AssignStmt&>(*f->toplevel->body[1]).lhs), nullptr);
}

}  // namespace
}  // namespace hintkit::starlark
