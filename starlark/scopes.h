// The resolver's environment (starlark-go's `block` and `Function` in resolve.go): which
// binding a name means at a point of the program, and the "undefined" errors of names that
// mean nothing. `Resolver` (resolver.cpp) walks the tree and asks `Scopes` at each name.
// Internal to starlark/.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "starlark/ast.h"

namespace hintkit::starlark {

// One function being resolved, or the file's top level (`parent` null).
struct FunctionScope {
  Function* fn = nullptr;
  FunctionScope* parent = nullptr;  // enclosing function (null for the top level)
  std::unordered_map<std::string, Binding*> locals;
  std::vector<std::unordered_map<std::string, Binding*>> comprehensions;  // innermost last
  std::unordered_map<std::string, Binding*> free;
  int loop_depth = 0;
};

// starlark-go's lexical blocks, kept only to order errors as it does: a use that is not at the
// top level proper is resolved when the file ends, block by block (inner blocks first, then
// the container's own uses), so its "undefined" comes after every immediate error.
struct LexBlock {
  LexBlock* parent = nullptr;
  bool container = false;  // a function body or the file
  std::vector<std::unique_ptr<LexBlock>> children;
  std::vector<Problem> deferred;  // "undefined" uses resolved at the end, in order
  // For each deferred use: the block it appears in and the name.
  std::vector<std::pair<LexBlock*, std::string>> deferred_uses;
  // Names a failed lookup has already been memoised in (starlark-go's lookupLexical binds
  // each block on the way up, so later uses below it are not reported again).
  std::unordered_set<std::string> memo;
};

class Scopes {
 public:
  Scopes(File& file, const std::vector<std::string>& predeclared,
         const std::function<bool(std::string_view)>& is_universal, std::vector<Problem>& problems);

  void error(Pos p, std::string msg) { problems_.push_back({std::move(msg), file_.name, p}); }

  // The function being resolved; `enter` makes `fs` current (its parent is the current one)
  // and opens its body's block, `leave` goes back to the parent.
  FunctionScope& current() { return *scope_; }
  bool at_top_level() const { return !scope_->parent; }
  void enter_file(FunctionScope& top);
  void enter(FunctionScope& fs);
  void leave();
  // A comprehension's block: its variables hide the function's names until `pop_block`.
  void push_comprehension();
  void pop_comprehension();

  Binding* global(const std::string& name);
  Binding* new_local(Function& fn, const std::string& name);

  // A name read: bound to what it means here, or reported undefined.
  void use(Ident& id);
  // An assignment target in the current scope.
  void bind(Ident& id);

  // Reports the undefined names left for the end of the file, in starlark-go's order.
  void finish();

 private:
  void push_block(bool container);
  void pop_block() { env_ = env_->parent; }
  std::string spelling_hint(const std::string& name);
  void undefined(Pos p, const std::string& name);
  void flush_deferred(LexBlock& b);
  Binding* lookup_in(FunctionScope* fs, const std::string& name);
  Binding* lookup(const std::string& name);
  // Directly at top level (not in a function or a comprehension).
  bool direct() const { return !scope_->parent && scope_->comprehensions.empty(); }

  File& file_;
  std::vector<Problem>& problems_;
  const std::function<bool(std::string_view)>& is_universal_;
  FunctionScope* scope_ = nullptr;
  LexBlock file_block_;
  LexBlock* env_ = nullptr;
  std::unordered_map<std::string, Binding*> globals_;
  std::unordered_set<std::string> bound_;  // globals bound so far, in text order
  std::unordered_map<std::string, Binding*> predeclared_;
  std::unordered_map<std::string, Binding*> universe_;
  Binding undefined_;
};

}  // namespace hintkit::starlark
