// The algorithm catalog: every algorithm the selector may choose from, one line each, then those
// other libraries add (register_algorithm). Order breaks ties in predicted cost: among equals,
// the algorithm with fewer local copies comes first (ring concat keeps blocks in place where
// Bruck rotates; linear scatter/gather forward nothing).
#include <array>
#include <vector>

#include "ccl/error.hpp"
#include "ccl/selection.hpp"
#include "common.hpp"

namespace ccl {

namespace {
using namespace algorithms;
constexpr std::array kCatalog{
    &bcast_binomial,
    &bcast_linear,
    &bcast_scatter_concat,
    &bcast_chain,
    &bcast_intercom,
    &reduce_binomial,
    &reduce_intercom,
    &reduce_segmented_binomial,
    &combine_recursive_doubling,
    &combine_ring,
    &combine_ccl_hybrid,
    &combine_intercom,
    // On equal predicted cost the earlier entry wins: those that copy less come first.
    &scatter_linear,
    &scatter_binomial,
    &gather_linear,
    &gather_binomial,
    &concat_ring,
    &concat_bruck,
    &concat_recursive_doubling,
    &concat_linear,
    &index_pairwise,
    &index_bruck,
    &index_linear,
    &prefix_recursive_doubling,
    &prefix_fan_in_out,
    &prefix_chain,
    &shift_direct,
    &sync_dissemination,
    &sync_linear,
};
}  // namespace

CollKind base_kind(CollKind k) {
  switch (k) {
    case CollKind::concatv:
      return CollKind::concat;
    case CollKind::gatherv:
      return CollKind::gather;
    case CollKind::scatterv:
      return CollKind::scatter;
    case CollKind::indexv:
      return CollKind::index;
    default:
      return k;
  }
}

namespace {
std::vector<const Algorithm*>& all_algorithms() {
  static std::vector<const Algorithm*> all(kCatalog.begin(), kCatalog.end());
  return all;
}
}  // namespace

std::span<const Algorithm* const> catalog() {
  return all_algorithms();
}

void register_algorithm(const Algorithm* a) {
  if (find_algorithm(a->kind, a->name) == a) return;
  if (find_algorithm(a->kind, a->name) != nullptr) {
    throw Error("ccl: a " + std::string(name(a->kind)) + " algorithm named '" +
                std::string(a->name) + "' is already in the catalog");
  }
  all_algorithms().push_back(a);
  note_catalog_change();
}

const Algorithm* find_algorithm(CollKind k, std::string_view name) {
  for (const Algorithm* a : all_algorithms()) {
    if (a->kind == base_kind(k) && a->name == name) return a;
  }
  return nullptr;
}

}  // namespace ccl
