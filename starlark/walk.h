// The one generic traversal of the syntax tree (starlark-go's `syntax.Walk`). A pass that means
// something particular for a few kinds of node handles those and leaves every other node to
// `children`, so a new kind of node is taught to every pass here, once. Dispatch that is
// genuinely per kind (evaluating, assigning, naming a node) stays a switch in its pass.
//
//   children(node, f)  calls f on each direct child of an `Expr` or a `Stmt`, in the order the
//                      program evaluates them (f is called with an `Expr&` or a `Stmt&`, so
//                      pass an overloaded or generic callable; constness follows the node);
//   walk(node, f)      calls f(node) and, when it returns true, walks each child the same way.
//
// Children in evaluation order, which is where this differs from starlark-go's Walk: an
// assignment's right side before its targets, a `for` loop's iterable before its variables, a
// comprehension's clauses before its body, a def's defaults and body before its name.
// Internal to starlark/.
#pragma once

#include <type_traits>

#include "starlark/ast.h"

namespace hintkit::starlark {

// Builds one callable out of several lambdas: `children(e, Overloaded{on_expr, on_stmt})`.
template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

namespace walk_internal {

// `U`, const when `Node` is.
template <class Node, class U>
using Like = std::conditional_t<std::is_const_v<Node>, const U, U>;

template <class Node, class T>
Like<Node, T>& as(Node& n) {
  return static_cast<Like<Node, T>&>(n);
}

template <class P, class F>
void each(P& p, F& f) {
  if (p) f(*p);
}

template <class Fn, class F>
void function(Fn& fn, F& f) {
  for (auto& p : fn.params) each(p.default_value, f);
  for (auto& s : fn.body) f(*s);
}

}  // namespace walk_internal

template <class E, class F>
requires std::is_same_v<std::remove_const_t<E>, Expr>
void children(E& e, F&& f) {
  using walk_internal::as;
  using walk_internal::each;
  switch (e.kind) {
    case ExprKind::kIdent:
    case ExprKind::kLiteral:
      return;
    case ExprKind::kUnary:
      f(*as<E, Unary>(e).x);
      return;
    case ExprKind::kBinary:
      f(*as<E, Binary>(e).x);
      f(*as<E, Binary>(e).y);
      return;
    case ExprKind::kCall:
      f(*as<E, CallExpr>(e).fn);
      for (auto& a : as<E, CallExpr>(e).args) f(*a.value);
      return;
    case ExprKind::kIndex:
      f(*as<E, IndexExpr>(e).x);
      f(*as<E, IndexExpr>(e).index);
      return;
    case ExprKind::kSlice: {
      auto& s = as<E, SliceExpr>(e);
      f(*s.x);
      each(s.lo, f);
      each(s.hi, f);
      each(s.step, f);
      return;
    }
    case ExprKind::kDot:
      f(*as<E, DotExpr>(e).x);
      return;
    case ExprKind::kList:
    case ExprKind::kTuple:
      for (auto& x : as<E, ListExpr>(e).items) f(*x);
      return;
    case ExprKind::kDict:
      for (auto& en : as<E, DictExpr>(e).entries) {
        f(*en.key);
        f(*en.value);
      }
      return;
    case ExprKind::kComprehension: {
      auto& c = as<E, Comprehension>(e);
      for (auto& cl : c.clauses) {
        f(*cl.x);
        each(cl.vars, f);
      }
      f(*c.body);
      each(c.dict_value, f);
      return;
    }
    case ExprKind::kLambda:
      walk_internal::function(*as<E, LambdaExpr>(e).fn, f);
      return;
    case ExprKind::kCond: {
      auto& c = as<E, CondExpr>(e);
      f(*c.cond);
      f(*c.then);
      f(*c.els);
      return;
    }
    case ExprKind::kParen:
      f(*as<E, ParenExpr>(e).x);
      return;
  }
}

template <class S, class F>
requires std::is_same_v<std::remove_const_t<S>, Stmt>
void children(S& s, F&& f) {
  using walk_internal::as;
  using walk_internal::each;
  switch (s.kind) {
    case StmtKind::kExpr:
      f(*as<S, ExprStmt>(s).x);
      return;
    case StmtKind::kAssign:
    case StmtKind::kAugAssign:
      f(*as<S, AssignStmt>(s).rhs);
      f(*as<S, AssignStmt>(s).lhs);
      return;
    case StmtKind::kDef: {
      auto& d = as<S, DefStmt>(s);
      walk_internal::function(*d.fn, f);
      f(static_cast<walk_internal::Like<S, Expr>&>(*d.name));
      return;
    }
    case StmtKind::kIf: {
      auto& i = as<S, IfStmt>(s);
      f(*i.cond);
      for (auto& x : i.then) f(*x);
      for (auto& x : i.els) f(*x);
      return;
    }
    case StmtKind::kFor: {
      auto& l = as<S, ForStmt>(s);
      f(*l.x);
      f(*l.vars);
      for (auto& x : l.body) f(*x);
      return;
    }
    case StmtKind::kWhile: {
      auto& w = as<S, WhileStmt>(s);
      f(*w.cond);
      for (auto& x : w.body) f(*x);
      return;
    }
    case StmtKind::kReturn:
      each(as<S, ReturnStmt>(s).result, f);
      return;
    case StmtKind::kBreak:
    case StmtKind::kContinue:
      return;
    case StmtKind::kLoad:
      for (auto& id : as<S, LoadStmt>(s).to) f(static_cast<walk_internal::Like<S, Expr>&>(*id));
      return;
  }
}

// Depth first: f(node) first; its children only if that returns true.
template <class N, class F>
requires std::is_same_v<std::remove_const_t<N>, Expr> ||
    std::is_same_v<std::remove_const_t<N>, Stmt>
void walk(N& n, F&& f) {
  if (!f(n)) return;
  children(n, [&f](auto& c) { walk(c, f); });
}

template <class F>
void walk(Block& b, F&& f) {
  for (auto& s : b) walk(*s, f);
}
template <class F>
void walk(const Block& b, F&& f) {
  for (const auto& s : b) walk(*s, f);
}

// The first child of an expression in evaluation order, or null (a leaf, an empty display, a
// lambda: its defaults are not part of the expression's own value).
inline const Expr* first_child(const Expr& e) {
  if (e.kind == ExprKind::kLambda) return nullptr;
  const Expr* first = nullptr;
  children(e, Overloaded{[&](const Expr& c) {
                           if (!first) first = &c;
                         },
                         [](const Stmt&) {}});
  return first;
}

// Where an expression starts (starlark-go's `syntax.Start`): its leftmost token.
inline Pos start_pos(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kBinary:
    case ExprKind::kCall:
    case ExprKind::kIndex:
    case ExprKind::kSlice:
    case ExprKind::kDot:
      return start_pos(*first_child(e));
    case ExprKind::kCond:  // `a if c else b`: c is evaluated first, a is leftmost
      return start_pos(*static_cast<const CondExpr&>(e).then);
    default:
      return e.pos;
  }
}

}  // namespace hintkit::starlark
