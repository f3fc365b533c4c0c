// Internal: huge pages for the process heap (mimalloc builds; no-ops otherwise).
//
// A short `hintkit values` run spends a large part of its time in page faults: every 4 KiB of
// fresh heap is one fault, and the YAML trees of a 170 KB input touch about 7 MB (1,900
// faults, a third of the run's CPU time on the overlay benchmark). With transparent huge
// pages one fault maps 2 MiB. The kernel (THP mode `madvise`) gives them only to memory
// marked MADV_HUGEPAGE before it is first touched, so the heap's first segments come from an
// arena reserved here before anything allocates (`reserve_heap_arena`, called from a
// constructor in main.cpp) and handed to mimalloc; `prefer_huge_pages` marks that arena once
// a command knows its run is worth it (pages already touched stay small).
//
// Huge pages cost memory wherever a 2 MiB stretch is only partly used (mimalloc keeps a
// partly filled 64 KiB page per size class and thread): up to about 7 MB in a run, so
// `values` asks for them only when its inputs are small (`kHugePagesMaxInputBytes`).
#pragma once

#include <cstddef>

namespace hintkit::plugin {

// Reserves (address space only, nothing committed) the arena mimalloc takes its first
// segments from. Skipped under an address-space limit (RLIMIT_AS), which the reservation
// would eat into, and when the mapping fails.
void reserve_heap_arena();

// Marks the reserved arena MADV_HUGEPAGE. Without an arena, does nothing.
void prefer_huge_pages();

}  // namespace hintkit::plugin
