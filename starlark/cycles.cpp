// Trial deletion, as CPython's collector does it: for every object reachable from the tracked
// modules and closures, count the references to it from inside that set. An object referenced
// more often is also held from outside (the host, a running frame, a host object) and keeps
// alive everything it reaches; modules that nothing alive reaches lose their globals, and
// cells their value, which lets counting free the rest.
#include "starlark/cycles.h"

#include <mutex>
#include <unordered_map>
#include <unordered_set>

namespace hintkit::starlark {
namespace {

struct Registry {
  std::mutex mu;
  std::vector<std::weak_ptr<ModuleEnv>> modules;
  std::unordered_set<FunctionObj*> closures;
};

Registry& registry() {
  static auto* r = new Registry();  // never destroyed: objects may still untrack at exit
  return *r;
}

// A node of the graph: an object, a module env or a cell.
struct Node {
  enum class Kind : uint8_t { kObject, kModule, kCell } kind;
  void* p;
  friend bool operator==(const Node&, const Node&) = default;
};
struct NodeHash {
  size_t operator()(const Node& n) const {
    return std::hash<void*>()(n.p) ^ static_cast<size_t>(n.kind);
  }
};

class Collector {
 public:
  // `uses`: for a module or cell, its shared_ptr count less the caller's own references.
  void add_root(const Node& n, long uses = 0) { visit(n, false, uses); }
  // An object the caller holds a reference to, which does not count as an outside one.
  void add_held(const Node& n) { visit(n, true, 0); }

  // Counts references inside the set, then marks what outside references keep alive.
  void scan() {
    while (!todo_.empty()) {
      Node n = todo_.back();
      todo_.pop_back();
      each_child(n, [&](const Node& c, long uses) { visit(c, true, uses); });
    }
    for (const auto& [n, internal] : inside_)
      if (held_from_outside(n, internal)) todo_.push_back(n);
    while (!todo_.empty()) {
      Node n = todo_.back();
      todo_.pop_back();
      if (!alive_.insert(n).second) continue;
      each_child(n, [&](const Node& c, long) {
        if (!alive_.contains(c)) todo_.push_back(c);
      });
    }
  }

  // Takes the links that close dead cycles out of the graph; the caller drops them once the
  // registry is unlocked (dropping them runs destructors that untrack closures).
  void cut(std::vector<Value>& garbage) {
    for (const auto& [n, internal] : inside_) {
      if (alive_.contains(n)) continue;
      if (n.kind == Node::Kind::kModule) {
        auto* m = static_cast<ModuleEnv*>(n.p);
        for (Value& v : m->globals) garbage.push_back(std::move(v));
        for (Value& v : m->predeclared) garbage.push_back(std::move(v));
        m->globals.clear();
        m->predeclared.clear();
        m->released = true;
      } else if (n.kind == Node::Kind::kCell) {
        garbage.push_back(std::move(static_cast<Cell*>(n.p)->value));
      } else {
        empty_dead_container(static_cast<Object*>(n.p), garbage);
      }
    }
  }

 private:
  // A dead container can be part of a cycle of its own (a list appended to itself): its items
  // go to `garbage`, so no destructor runs while the registry is locked.
  static void empty_dead_container(Object* o, std::vector<Value>& garbage) {
    auto take = [&](std::vector<Value>& items) {
      for (Value& v : items) garbage.push_back(std::move(v));
      items.clear();
    };
    auto take_table = [&](HashTable& t) {
      for (const auto& e : t.entries()) {
        if (!e.live) continue;
        garbage.push_back(e.key);
        garbage.push_back(e.value);
      }
      t.clear();  // the copies above keep every entry alive until `garbage` goes
    };
    switch (o->kind()) {
      case Kind::kList:
        take(static_cast<ListObj*>(o)->items);
        break;
      case Kind::kTuple:
        take(static_cast<TupleObj*>(o)->items);
        break;
      case Kind::kDict:
        take_table(static_cast<DictObj*>(o)->table);
        break;
      case Kind::kSet:
        take_table(static_cast<SetObj*>(o)->table);
        break;
      case Kind::kStruct:
        for (auto& field : static_cast<StructObj*>(o)->fields)
          garbage.push_back(std::move(field.second));
        static_cast<StructObj*>(o)->fields.clear();
        break;
      default:
        break;
    }
  }

  void visit(const Node& n, bool counted, long uses) {
    auto [it, fresh] = inside_.try_emplace(n, 0);
    if (counted) ++it->second;
    if (fresh) {
      todo_.push_back(n);
      if (n.kind != Node::Kind::kObject) uses_[n] = uses;
    }
  }

  bool held_from_outside(const Node& n, long internal) const {
    if (n.kind == Node::Kind::kObject)
      return static_cast<long>(static_cast<Object*>(n.p)->use_count()) > internal;
    return uses_.at(n) > internal;
  }

  template <typename F>
  static void each_child(const Node& n, F&& f) {
    auto value = [&](const Value& v) {
      if (v.is_object()) f(Node{Node::Kind::kObject, v.object()}, 0);
    };
    if (n.kind == Node::Kind::kModule) {
      auto* m = static_cast<ModuleEnv*>(n.p);
      for (const Value& v : m->globals) value(v);
      for (const Value& v : m->predeclared) value(v);
      return;
    }
    if (n.kind == Node::Kind::kCell) {
      value(static_cast<Cell*>(n.p)->value);
      return;
    }
    auto* o = static_cast<Object*>(n.p);
    switch (o->kind()) {
      case Kind::kList:
        for (const Value& v : static_cast<ListObj*>(o)->items) value(v);
        break;
      case Kind::kTuple:
        for (const Value& v : static_cast<TupleObj*>(o)->items) value(v);
        break;
      case Kind::kDict:
        for (const auto& e : static_cast<DictObj*>(o)->table.entries()) {
          if (!e.live) continue;
          value(e.key);
          value(e.value);
        }
        break;
      case Kind::kSet:
        for (const auto& e : static_cast<SetObj*>(o)->table.entries())
          if (e.live) value(e.key);
        break;
      case Kind::kStruct:
        for (const auto& field : static_cast<StructObj*>(o)->fields) value(field.second);
        break;
      case Kind::kBuiltin: {
        auto* b = static_cast<BuiltinObj*>(o);
        if (b->bound) value(b->receiver);
        break;
      }
      case Kind::kFunction: {
        auto* fn = static_cast<FunctionObj*>(o);
        for (const Value& v : fn->defaults) value(v);
        if (fn->module) f(Node{Node::Kind::kModule, fn->module.get()}, fn->module.use_count());
        for (const CellPtr& c : fn->freevars) f(Node{Node::Kind::kCell, c.get()}, c.use_count());
        break;
      }
      default:  // scalars, strings, ranges; what a host object holds counts as held outside
        break;
    }
  }

  std::unordered_map<Node, long, NodeHash> inside_;
  std::unordered_map<Node, long, NodeHash> uses_;  // shared_ptr counts of modules and cells
  std::unordered_set<Node, NodeHash> alive_;
  std::vector<Node> todo_;
};

}  // namespace

void track_module(const std::shared_ptr<ModuleEnv>& module) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  r.modules.push_back(module);
}

void track_closure(FunctionObj* closure) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  r.closures.insert(closure);
  closure->tracked = true;
}

void untrack_closure(FunctionObj* closure) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  r.closures.erase(closure);
}

void collect_cycles(const std::shared_ptr<ModuleEnv>& only) {
  std::vector<Value> garbage;
  {
    Registry& r = registry();
    std::lock_guard lock(r.mu);
    Collector c;
    if (only) {
      c.add_root(Node{Node::Kind::kModule, only.get()}, only.use_count() - 1);
    } else {
      std::erase_if(r.modules, [](const auto& w) { return w.expired(); });
      for (const auto& w : r.modules) {
        long uses = w.use_count();  // nothing runs meanwhile: the count stays as read
        if (uses > 0) c.add_root(Node{Node::Kind::kModule, w.lock().get()}, uses);
      }
      for (FunctionObj* f : r.closures) c.add_root(Node{Node::Kind::kObject, f});
    }
    c.scan();
    c.cut(garbage);
  }
  garbage.clear();
}

void collect_cycles_held(std::vector<Value>& held) {
  std::vector<Value> garbage;
  {
    std::lock_guard lock(registry().mu);
    Collector c;
    for (const Value& v : held)
      if (v.is_object()) c.add_held(Node{Node::Kind::kObject, v.object()});
    c.scan();
    c.cut(garbage);
  }
  held.clear();
  garbage.clear();
}

}  // namespace hintkit::starlark
