// Trial deletion, as CPython's collector does it: for every object reachable from the tracked
// modules and closures, count the references to it from inside that set. An object referenced
// more often is also held from outside (the host, a running frame, a host object) and keeps
// alive everything it reaches; modules that nothing alive reaches lose their globals, and
// cells their value, which lets counting free the rest.
#include "starlark/cycles.h"

#include <algorithm>
#include <climits>
#include <cstdint>
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
};
// What the collector knows of each node, in one open-addressed table (a collection looks at
// every container a program holds, so this is where its time and memory go): the node's
// pointer with its kind and an "alive" mark in the low bits, the references to it from inside
// the graph, and for a module or cell its shared_ptr count.
class NodeTable {
 public:
  struct Slot {
    uintptr_t key = 0;  // 0: empty
    uint32_t internal = 0;
    uint32_t uses = 0;
    Node node() const {
      return Node{static_cast<Node::Kind>(key & 3), reinterpret_cast<void*>(key & ~uintptr_t{7})};
    }
    bool alive() const { return key & 4; }
    void set_alive() { key |= 4; }
  };

  // The slot of `n`, made (zeroed) if new; `fresh` says which.
  Slot& at(const Node& n, bool& fresh) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    uintptr_t key = key_of(n);
    size_t i = start(key);
    while (slots_[i].key != 0) {
      if ((slots_[i].key & ~uintptr_t{4}) == key) {
        fresh = false;
        return slots_[i];
      }
      i = (i + 1) & (slots_.size() - 1);
    }
    ++size_;
    fresh = true;
    slots_[i].key = key;
    return slots_[i];
  }
  Slot* find(const Node& n) {
    if (slots_.empty()) return nullptr;
    uintptr_t key = key_of(n);
    for (size_t i = start(key); slots_[i].key != 0; i = (i + 1) & (slots_.size() - 1))
      if ((slots_[i].key & ~uintptr_t{4}) == key) return &slots_[i];
    return nullptr;
  }
  template <typename F>
  void each(F&& f) {
    for (Slot& s : slots_)
      if (s.key != 0) f(s);
  }

 private:
  static uintptr_t key_of(const Node& n) {
    return reinterpret_cast<uintptr_t>(n.p) | static_cast<uintptr_t>(n.kind);
  }
  size_t start(uintptr_t key) const {
    return static_cast<size_t>((key >> 3) * 0x9E3779B97F4A7C15ull >> 20) & (slots_.size() - 1);
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
    for (const Slot& s : old) {
      if (s.key == 0) continue;
      size_t i = start(s.key & ~uintptr_t{4});
      while (slots_[i].key != 0) i = (i + 1) & (slots_.size() - 1);
      slots_[i] = s;
    }
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

class Collector {
 public:
  // kModules: every node. The container modes (see collect_containers) leave modules and
  // frozen lists, dicts and structs out of the graph; kYoungContainers old containers too.
  enum class Mode : uint8_t { kModules, kAllContainers, kYoungContainers };
  explicit Collector(Mode mode = Mode::kModules) : mode_(mode) {}

  // Nodes and edges looked at so far.
  size_t work() const { return work_; }

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
    table_.each([&](NodeTable::Slot& s) {
      if (held_from_outside(s)) todo_.push_back(s.node());
    });
    while (!todo_.empty()) {
      Node n = todo_.back();
      todo_.pop_back();
      NodeTable::Slot* s = table_.find(n);
      if (s->alive()) continue;
      s->set_alive();
      each_child(n, [&](const Node& c, long) {
        if (!table_.find(c)->alive()) todo_.push_back(c);
      });
    }
  }

  // Takes the links that close dead cycles out of the graph; the caller drops them once the
  // registry is unlocked (dropping them runs destructors that untrack closures).
  void cut(std::vector<Value>& garbage) {
    table_.each([&](NodeTable::Slot& s) {
      if (s.alive()) return;
      Node n = s.node();
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
    });
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
    ++work_;
    bool fresh = false;
    NodeTable::Slot& s = table_.at(n, fresh);
    if (counted) ++s.internal;
    if (fresh) {
      todo_.push_back(n);
      // Counts beyond 32 bits are held from outside anyway.
      if (n.kind != Node::Kind::kObject)
        s.uses = static_cast<uint32_t>(std::min<long>(uses, UINT32_MAX));
    }
  }

  bool held_from_outside(const NodeTable::Slot& s) const {
    Node n = s.node();
    if (n.kind == Node::Kind::kObject) return static_cast<Object*>(n.p)->use_count() > s.internal;
    return s.uses > s.internal;
  }

  // Whether a value stays out of the graph: a frozen list, dict or struct reaches only frozen
  // values, so no cycle of mutable ones passes through it; in a young collection, an old
  // container is taken as held from outside.
  bool left_out(const Object* o) const {
    switch (o->kind()) {
      case Kind::kList:
        return mutable_left_out(static_cast<const ListObj*>(o));
      case Kind::kDict:
        return mutable_left_out(static_cast<const DictObj*>(o));
      case Kind::kSet:
        return mode_ == Mode::kYoungContainers && static_cast<const SetObj*>(o)->gc_old;
      case Kind::kStruct:
        return static_cast<const StructObj*>(o)->frozen;
      default:
        return false;
    }
  }
  bool mutable_left_out(const Mutable* m) const {
    return m->frozen || (mode_ == Mode::kYoungContainers && m->gc_old);
  }

  template <typename F>
  void each_child(const Node& n, F&& f) {
    auto value = [&](const Value& v) {
      ++work_;
      if (!v.is_object()) return;
      if (mode_ != Mode::kModules && left_out(v.object())) return;
      f(Node{Node::Kind::kObject, v.object()}, 0);
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
        if (fn->module && mode_ == Mode::kModules)
          f(Node{Node::Kind::kModule, fn->module.get()}, fn->module.use_count());
        for (const CellPtr& c : fn->freevars) f(Node{Node::Kind::kCell, c.get()}, c.use_count());
        break;
      }
      default:  // scalars, strings, ranges; what a host object holds counts as held outside
        break;
    }
  }

  Mode mode_;
  size_t work_ = 0;
  NodeTable table_;
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

size_t live_modules() {
  collect_cycles();
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  std::erase_if(r.modules, [](const auto& w) { return w.expired(); });
  return r.modules.size();
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

namespace {
Object* container_of(GcLink* link) {
  auto* m = static_cast<Mutable*>(link);
  switch (m->gc_kind) {
    case Kind::kList:
      return static_cast<ListObj*>(m);
    case Kind::kDict:
      return static_cast<DictObj*>(m);
    default:
      return static_cast<SetObj*>(m);
  }
}
}  // namespace

void collect_containers(ContainerList& list, bool full) {
  std::vector<Value> garbage;
  Collector c(full ? Collector::Mode::kAllContainers : Collector::Mode::kYoungContainers);
  auto add_roots = [&](GcLink& head) {
    for (GcLink* l = head.gc_next; l != &head; l = l->gc_next)
      if (!static_cast<Mutable*>(l)->frozen) c.add_root(Node{Node::Kind::kObject, container_of(l)});
  };
  add_roots(list.young);
  if (full) add_roots(list.old);
  c.scan();
  c.cut(garbage);
  garbage.clear();  // the dead containers leave the lists as they go
  // The survivors are old now: the young list moves to the front of the old one.
  size_t moved = 0;
  for (GcLink* l = list.young.gc_next; l != &list.young; l = l->gc_next, ++moved)
    static_cast<Mutable*>(l)->gc_old = true;
  if (moved) {
    GcLink* first = list.young.gc_next;
    GcLink* last = list.young.gc_prev;
    last->gc_next = list.old.gc_next;
    list.old.gc_next->gc_prev = last;
    list.old.gc_next = first;
    first->gc_prev = &list.old;
    list.young.gc_next = list.young.gc_prev = &list.young;
  }
  // The work W (nodes and edges: a few units per container) is paid for by the program's
  // own: the next collection waits for W / 4 more steps (`work_due`, checked by the caller)
  // and at least 4096 more containers.
  list.made = 0;
  list.work_due = c.work() / 4;
  if (full) {
    list.promoted = 0;
    list.next_full_at = std::max<size_t>(16384, c.work() / 2);
  } else {
    list.promoted += moved;
  }
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
