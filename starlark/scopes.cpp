#include "starlark/scopes.h"

#include <algorithm>

#include "diag/diag.h"

namespace hintkit::starlark {

Scopes::Scopes(File& file, const std::vector<std::string>& predeclared,
               const std::function<bool(std::string_view)>& is_universal,
               std::vector<Problem>& problems)
    : file_(file), problems_(problems), is_universal_(is_universal) {
  for (size_t i = 0; i < predeclared.size(); ++i) {
    auto b = std::make_unique<Binding>();
    b->scope = Scope::kPredeclared;
    b->index = static_cast<int>(i);
    b->name = predeclared[i];
    predeclared_[predeclared[i]] = b.get();
    file_.predeclared.push_back(std::move(b));
  }
}

void Scopes::enter_file(FunctionScope& top) {
  scope_ = &top;
  file_block_.container = true;
  env_ = &file_block_;
}

void Scopes::enter(FunctionScope& fs) {
  fs.parent = scope_;
  scope_ = &fs;
  push_block(true);
}

void Scopes::leave() {
  pop_block();
  scope_ = scope_->parent;
}

void Scopes::push_comprehension() {
  push_block(false);
  scope_->comprehensions.emplace_back();
}

void Scopes::pop_comprehension() {
  scope_->comprehensions.pop_back();
  pop_block();
}

void Scopes::push_block(bool container) {
  auto b = std::make_unique<LexBlock>();
  b->parent = env_;
  b->container = container;
  LexBlock* raw = b.get();
  env_->children.push_back(std::move(b));
  env_ = raw;
}

Binding* Scopes::global(const std::string& name) {
  auto it = globals_.find(name);
  if (it != globals_.end()) return it->second;
  auto b = std::make_unique<Binding>();
  b->scope = Scope::kGlobal;
  b->index = static_cast<int>(file_.globals.size());
  b->name = name;
  Binding* raw = b.get();
  globals_[name] = raw;
  file_.globals.push_back(std::move(b));
  return raw;
}

Binding* Scopes::new_local(Function& fn, const std::string& name) {
  auto b = std::make_unique<Binding>();
  b->scope = Scope::kLocal;
  b->index = fn.num_locals++;
  b->name = name;
  Binding* raw = b.get();
  fn.locals.push_back(std::move(b));
  return raw;
}

// ---- Undefined names ----

// The names a misspelt use may have meant: the enclosing functions' locals and the globals,
// matched in sorted order.
std::string Scopes::spelling_hint(const std::string& name) {
  std::vector<std::string> names;
  for (FunctionScope* f = scope_; f; f = f->parent) {
    for (const auto& c : f->comprehensions)
      for (const auto& [n, _] : c) names.push_back(n);
    for (const auto& [n, _] : f->locals) names.push_back(n);
  }
  // Directly at top level only the globals bound so far are known (function bodies are
  // resolved once the whole file has been).
  for (const auto& [n, _] : globals_) {
    if (!direct() || bound_.count(n)) names.push_back(n);
  }
  std::sort(names.begin(), names.end());
  std::string best = diag::go_spell_nearest(name, names);
  return best.empty() ? "" : " (did you mean " + best + "?)";
}

// An undefined name: reported now at the top level proper, else when the file ends.
void Scopes::undefined(Pos p, const std::string& name) {
  const std::string msg = "undefined: " + name + spelling_hint(name);
  if (env_ == &file_block_) {
    error(p, msg);
    return;
  }
  LexBlock* c = env_;
  while (!c->container) c = c->parent;
  c->deferred.push_back({msg, file_.name, p});
  c->deferred_uses.emplace_back(env_, name);
}

void Scopes::finish() {
  scope_ = nullptr;
  flush_deferred(file_block_);
}

// starlark-go's resolveNonLocalUses: inner blocks first, then the block's own uses; a name
// a use failed to find is memoised in each block between the use and the file, so it is
// reported once per function it appears in.
void Scopes::flush_deferred(LexBlock& b) {
  for (auto& child : b.children) flush_deferred(*child);
  for (size_t i = 0; i < b.deferred.size(); ++i) {
    auto& [env, name] = b.deferred_uses[i];
    bool seen = false;
    for (LexBlock* e = env; e && e != &file_block_; e = e->parent) {
      if (e->memo.count(name)) {
        seen = true;
        break;
      }
    }
    if (seen) continue;
    for (LexBlock* e = env; e && e != &file_block_; e = e->parent) e->memo.insert(name);
    problems_.push_back(std::move(b.deferred[i]));
  }
  b.deferred.clear();
  b.deferred_uses.clear();
}

// ---- Lookup ----

Binding* Scopes::lookup_in(FunctionScope* fs, const std::string& name) {
  for (auto it = fs->comprehensions.rbegin(); it != fs->comprehensions.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return f->second;
  }
  auto l = fs->locals.find(name);
  if (l != fs->locals.end()) return l->second;
  auto fr = fs->free.find(name);
  if (fr != fs->free.end()) return fr->second;
  if (!fs->parent) return nullptr;
  Binding* outer = lookup_in(fs->parent, name);
  if (!outer) return nullptr;
  if (outer->scope != Scope::kLocal && outer->scope != Scope::kCell && outer->scope != Scope::kFree)
    return outer;
  if (outer->scope == Scope::kLocal) outer->captured = true;
  auto b = std::make_unique<Binding>();
  b->scope = Scope::kFree;
  b->index = static_cast<int>(fs->fn->freevars.size());
  b->name = name;
  fs->fn->freevars.push_back({outer});
  Binding* raw = b.get();
  fs->free[name] = raw;
  fs->fn->locals.push_back(std::move(b));
  return raw;
}

Binding* Scopes::lookup(const std::string& name) {
  if (Binding* b = lookup_in(scope_, name)) return b;
  auto g = globals_.find(name);
  // Directly at top level a global must be bound earlier in the text; function bodies and
  // comprehensions may refer to globals bound later.
  if (g != globals_.end() && (!direct() || bound_.count(name))) return g->second;
  auto p = predeclared_.find(name);
  if (p != predeclared_.end()) return p->second;
  auto u = universe_.find(name);
  if (u != universe_.end()) return u->second;
  if (is_universal_(name)) {
    // the value is compile()'s to fill in (compile.cpp)
    auto b = std::make_unique<Binding>();
    b->scope = Scope::kUniverse;
    b->name = name;
    Binding* raw = b.get();
    universe_[name] = raw;
    file_.universe.push_back(std::move(b));
    return raw;
  }
  return nullptr;
}

void Scopes::use(Ident& id) {
  id.binding = lookup(id.name);
  if (!id.binding) {
    undefined(id.pos, id.name);
    id.binding = &undefined_;
  }
}

void Scopes::bind(Ident& id) {
  if (!scope_->comprehensions.empty()) {
    auto& c = scope_->comprehensions.back();
    auto it = c.find(id.name);
    if (it != c.end()) {
      id.binding = it->second;
      return;
    }
  }
  if (!scope_->parent) {
    id.binding = global(id.name);
    bound_.insert(id.name);
    return;
  }
  id.binding = scope_->locals.at(id.name);
}

}  // namespace hintkit::starlark
