// Datatype layouts, from the datatype's constructors (MPI_Type_get_envelope / get_contents).
#include "datatype_layout.hpp"

#include <map>
#include <vector>

namespace ccl::drop_in {

namespace {

struct Walked {
  MPI_Datatype basic = MPI_DATATYPE_NULL;  // null: leaves of more than one type
  std::size_t basic_count = 0;
  bool packed = false;   // element memory = packed bytes, in order
  bool strided = false;  // element memory = basic_count basic elements, one basic extent apart
};

MPI_Aint extent_of(MPI_Datatype t) {
  MPI_Aint lb = 0, extent = 0;
  PMPI_Type_get_extent(t, &lb, &extent);
  return extent;
}

// Blocks (element count, byte displacement) of one type, in order: do they follow each other
// from offset 0 with no gap?
bool consecutive(const std::vector<long long>& counts, const std::vector<MPI_Aint>& displacements,
                 MPI_Aint element_extent) {
  MPI_Aint next = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    if (displacements[i] != next) return false;
    next += static_cast<MPI_Aint>(counts[i]) * element_extent;
  }
  return true;
}

Walked walk(MPI_Datatype t);

// A type made of `blocks` of `old` elements: combine old's layout with the blocks' placement.
Walked repeated(const Walked& old, MPI_Datatype old_type, const std::vector<long long>& counts,
                const std::vector<MPI_Aint>& displacements) {
  Walked w = old;
  long long total = 0;
  for (long long c : counts) total += c;
  w.basic_count = old.basic_count * static_cast<std::size_t>(total);
  const bool in_order = consecutive(counts, displacements, extent_of(old_type));
  w.packed = old.packed && in_order;
  w.strided = old.strided && in_order;
  return w;
}

Walked walk_contents(int combiner, const std::vector<int>& ints, const std::vector<MPI_Aint>& addrs,
                     const std::vector<MPI_Datatype>& types) {
  auto ints_at = [&](int from, int n) {
    std::vector<long long> v;
    for (int i = 0; i < n; ++i) v.push_back(ints[static_cast<std::size_t>(from + i)]);
    return v;
  };
  switch (combiner) {
    case MPI_COMBINER_DUP:
      return walk(types[0]);
    case MPI_COMBINER_CONTIGUOUS:
      return repeated(walk(types[0]), types[0], {ints[0]}, {0});
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR: {
      const Walked old = walk(types[0]);
      const int n = ints[0];
      const MPI_Aint stride = combiner == MPI_COMBINER_VECTOR
                                  ? static_cast<MPI_Aint>(ints[2]) * extent_of(types[0])
                                  : addrs[0];
      std::vector<MPI_Aint> displacements;
      for (int i = 0; i < n; ++i) displacements.push_back(i * stride);
      return repeated(old, types[0], std::vector<long long>(static_cast<std::size_t>(n), ints[1]),
                      displacements);
    }
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK: {
      const Walked old = walk(types[0]);
      const int n = ints[0];
      const bool block =
          combiner == MPI_COMBINER_INDEXED_BLOCK || combiner == MPI_COMBINER_HINDEXED_BLOCK;
      const bool bytes =
          combiner == MPI_COMBINER_HINDEXED || combiner == MPI_COMBINER_HINDEXED_BLOCK;
      const std::vector<long long> counts =
          block ? std::vector<long long>(static_cast<std::size_t>(n), ints[1]) : ints_at(1, n);
      std::vector<MPI_Aint> displacements;
      for (int i = 0; i < n; ++i) {
        displacements.push_back(bytes ? addrs[static_cast<std::size_t>(i)]
                                      : ints[static_cast<std::size_t>((block ? 2 : n + 1) + i)] *
                                            extent_of(types[0]));
      }
      return repeated(old, types[0], counts, displacements);
    }
    case MPI_COMBINER_STRUCT: {
      const int n = ints[0];
      Walked w;
      w.packed = w.strided = true;
      MPI_Aint next = 0;
      for (int i = 0; i < n; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const Walked field = walk(types[k]);
        const long long count = ints[k + 1];
        if (i == 0) w.basic = field.basic;
        if (field.basic != w.basic) w.basic = MPI_DATATYPE_NULL;
        w.basic_count += field.basic_count * static_cast<std::size_t>(count);
        const bool placed = count == 0 || addrs[k] == next;
        w.packed = w.packed && field.packed && placed;
        w.strided = w.strided && field.strided && placed;
        if (count != 0) next = addrs[k] + count * extent_of(types[k]);
      }
      return w;
    }
    case MPI_COMBINER_RESIZED:  // the new bounds are checked by walk() like any type's
      return walk(types[0]);
    default:  // subarrays, distributed arrays, Fortran types: always packed, never reduced in place
      return Walked{};
  }
}

// The layout of t from its constructor, then checked against t's own bounds: an element whose
// extent differs from its data (alignment padding, MPI_Type_create_resized) has gaps.
Walked walk(MPI_Datatype t) {
  int n_ints = 0, n_addrs = 0, n_types = 0, combiner = 0;
  PMPI_Type_get_envelope(t, &n_ints, &n_addrs, &n_types, &combiner);
  Walked w;
  if (combiner == MPI_COMBINER_NAMED) {
    w = Walked{t, 1, true, true};
  } else {
    std::vector<int> ints(static_cast<std::size_t>(n_ints));
    std::vector<MPI_Aint> addrs(static_cast<std::size_t>(n_addrs));
    std::vector<MPI_Datatype> types(static_cast<std::size_t>(n_types));
    PMPI_Type_get_contents(t, n_ints, n_addrs, n_types, ints.data(), addrs.data(), types.data());
    w = walk_contents(combiner, ints, addrs, types);
    for (MPI_Datatype& inner : types) {  // get_contents returns new handles for derived types
      if (!is_predefined(inner)) PMPI_Type_free(&inner);
    }
  }
  int size = 0;
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  PMPI_Type_size(t, &size);
  PMPI_Type_get_extent(t, &lb, &extent);
  PMPI_Type_get_true_extent(t, &true_lb, &true_extent);
  const bool from_zero = lb == 0 && true_lb == 0;
  // Pair types (MPI_DOUBLE_INT...) have padding: strided as themselves, never packed.
  w.packed = w.packed && from_zero && extent == size && true_extent == extent;
  w.strided = w.strided && w.basic != MPI_DATATYPE_NULL && from_zero &&
              extent == static_cast<MPI_Aint>(w.basic_count) * extent_of(w.basic);
  return w;
}

Layout compute(MPI_Datatype t) {
  int size = 0;
  MPI_Aint lb = 0, extent = 0;
  PMPI_Type_size(t, &size);
  PMPI_Type_get_extent(t, &lb, &extent);
  const Walked w = walk(t);
  Layout l;
  l.size = static_cast<std::size_t>(size);
  l.extent = extent;
  l.packed = w.packed;
  l.basic = w.basic;
  l.basic_count = w.basic_count;
  l.basic_strided = w.strided;
  return l;
}

std::map<MPI_Datatype, Layout>& cache() {
  static std::map<MPI_Datatype, Layout> c;
  return c;
}

}  // namespace

MPI_Datatype last_layout_type = MPI_DATATYPE_NULL;
const Layout* last_layout = nullptr;  // into the map, whose nodes never move

const Layout& lookup_layout(MPI_Datatype type) {
  auto& c = cache();
  auto it = c.find(type);
  if (it == c.end()) it = c.emplace(type, compute(type)).first;
  last_layout_type = type;
  last_layout = &it->second;
  return it->second;
}

bool is_predefined(MPI_Datatype type) {
  int integers = 0, addresses = 0, types = 0, combiner = 0;
  return PMPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner) != MPI_SUCCESS ||
         combiner == MPI_COMBINER_NAMED;
}

void forget_layout(MPI_Datatype type) {
  if (type == last_layout_type) last_layout = nullptr;
  cache().erase(type);
}

}  // namespace ccl::drop_in
