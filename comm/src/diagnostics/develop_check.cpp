#include "diagnostics/develop_check.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "calls/start.hpp"
#include "ccl/error.hpp"
#include "ccl/selection.hpp"

namespace ccl::detail {

namespace {

std::string prefix(const GroupState& g, CollKind kind) {
  return "ccl develop check: " + std::string(name(kind)) + " on group '" + g.label + "' (pgid " +
         g.pgid.str() + "): ";
}

std::uint64_t hash_counts(const std::vector<std::size_t>& v) {
  std::string text;
  for (auto c : v) text += std::to_string(c) + ",";
  return fingerprint(text);
}

Shape table_shape(const GroupState& g, std::size_t elem, CollKind kind) {
  Shape s;
  s.kind = kind;
  s.size = static_cast<int>(g.members.size());
  s.rank = g.rank;
  s.elem = elem;
  s.count = 1;
  return s;
}

// Gather one record per member into `table` on every member (phase `phase`).
template <class T>
void add_table_exchange(Operation& op, const T* mine, std::vector<T>& table, std::uint64_t instance,
                        int phase) {
  add_check_schedule(op, table_shape(op.group(), sizeof(T), CollKind::concat),
                     reinterpret_cast<const std::byte*>(mine),
                     reinterpret_cast<std::byte*>(table.data()), instance, phase);
}

}  // namespace

Descriptor describe_call(const GroupState& g, const Call& c, const std::optional<Problem>& local) {
  Descriptor d{};
  d.pgid_serial = g.pgid.serial;
  d.pgid_hash = g.pgid.list_hash;
  d.pgid_leader = g.pgid.leader;
  d.kind = static_cast<std::uint32_t>(c.kind);
  d.root = is_rooted(c.kind) ? c.root : 0;
  d.distance = c.kind == CollKind::shift ? c.distance : 0;
  d.elem = c.elem;
  const int n = static_cast<int>(g.members.size());
  if (!is_vector_form(c.kind) && !local) d.count = shape_of(c, n, g.rank, false).count;
  if (c.kind != CollKind::indexv) d.counts_hash = hash_counts(c.counts);
  if (is_reduction(c.kind) && c.kernel) {
    d.op_id = c.kernel.id;
    std::memcpy(d.op_name, c.kernel.name.data(),
                std::min(c.kernel.name.size(), sizeof(d.op_name) - 1));
  }
  if (local) {
    d.problem = *local;
  } else {
    const std::string choice = select(shape_of(c, n, g.rank, false, g.torus)).str();
    d.choice_hash = fingerprint(choice);
    std::memcpy(d.choice, choice.data(), std::min(choice.size(), sizeof(d.choice) - 1));
  }
  return d;
}

std::optional<std::string> find_disagreement(std::span<const Descriptor> all, const GroupState& g) {
  const Descriptor& ref = all[0];
  const CollKind kind = static_cast<CollKind>(ref.kind);
  const std::string head = prefix(g, kind);
  auto differs = [&](int r, const std::string& what, const std::string& mine,
                     const std::string& theirs) {
    return head + "rank " + std::to_string(r) + " passed " + what + " " + mine +
           ", rank 0 passed " + what + " " + theirs;
  };
  for (int r = 0; r < static_cast<int>(all.size()); ++r) {
    const Descriptor& d = all[static_cast<std::size_t>(r)];
    if (d.problem.code != ProblemCode::none) {
      return head + "rank " + std::to_string(r) + ": " + describe(d.problem);
    }
    if (d.kind != ref.kind) {
      return head + "rank " + std::to_string(r) + " called " +
             std::string(name(static_cast<CollKind>(d.kind))) + ", rank 0 called " +
             std::string(name(kind));
    }
    if (d.pgid_serial != ref.pgid_serial || d.pgid_leader != ref.pgid_leader ||
        d.pgid_hash != ref.pgid_hash) {
      return head + "rank " + std::to_string(r) + " is in a different group";
    }
    if (d.elem != ref.elem) {
      return differs(r, "element size", std::to_string(d.elem), std::to_string(ref.elem));
    }
    if (is_rooted(kind) && d.root != ref.root) {
      return differs(r, "root", std::to_string(d.root), std::to_string(ref.root));
    }
    if (is_reduction(kind) && d.op_id != ref.op_id) {
      return differs(r, "reduce op", std::string("'") + d.op_name + "'",
                     std::string("'") + ref.op_name + "'");
    }
    if (d.count != ref.count) {
      return differs(r, "count", std::to_string(d.count), std::to_string(ref.count));
    }
    if (d.distance != ref.distance) {
      return differs(r, "distance", std::to_string(d.distance), std::to_string(ref.distance));
    }
    if (d.counts_hash != ref.counts_hash) {
      return head + "rank " + std::to_string(r) + " passed a counts list different from rank 0's";
    }
    if (d.choice_hash != ref.choice_hash) {
      return head + "rank " + std::to_string(r) + " selected algorithm " + d.choice +
             ", rank 0 selected " + ref.choice +
             " (their machine models or CCL_ALGO_ overrides differ)";
    }
  }
  return std::nullopt;
}

void add_develop_checks(Operation& op, const std::optional<Problem>& local,
                        std::uint64_t instance) {
  GroupState& g = op.group();
  const Call& c = op.call();
  const std::size_t n = g.members.size();
  auto mine = std::make_shared<Descriptor>(describe_call(g, c, local));
  auto table = std::make_shared<std::vector<Descriptor>>(n);
  op.keep(mine);
  op.keep(table);
  add_table_exchange(op, mine.get(), *table, instance, 1);
  op.add(std::make_unique<LocalStage>([table, &g] {
    if (auto msg = find_disagreement(*table, g)) throw Error(*msg);
  }));
  if (c.kind != CollKind::indexv) return;

  // Member j must receive from i exactly what i sends to j: swap the send counts, compare each
  // with the recv counts, and share the verdicts so that everyone reports the same mismatch.
  struct Verdict {
    std::int64_t from = -1;
    std::int64_t sent = 0;
    std::int64_t expected = 0;
  };
  auto sent_to_me = std::make_shared<std::vector<std::uint64_t>>(n);
  auto my_counts = std::make_shared<std::vector<std::uint64_t>>(c.counts.begin(), c.counts.end());
  auto verdict = std::make_shared<Verdict>();
  auto verdicts = std::make_shared<std::vector<Verdict>>(n);
  op.keep(sent_to_me);
  op.keep(my_counts);
  op.keep(verdict);
  op.keep(verdicts);
  add_check_schedule(op, table_shape(g, sizeof(std::uint64_t), CollKind::index),
                     reinterpret_cast<const std::byte*>(my_counts->data()),
                     reinterpret_cast<std::byte*>(sent_to_me->data()), instance, 2);
  std::vector<std::size_t> expect = c.recv_counts;
  op.add(std::make_unique<LocalStage>([sent_to_me, verdict, expect] {
    for (std::size_t i = 0; i < expect.size(); ++i) {
      if ((*sent_to_me)[i] != expect[i]) {
        *verdict =
            Verdict{static_cast<std::int64_t>(i), static_cast<std::int64_t>((*sent_to_me)[i]),
                    static_cast<std::int64_t>(expect[i])};
        return;
      }
    }
  }));
  add_table_exchange(op, verdict.get(), *verdicts, instance, 3);
  op.add(std::make_unique<LocalStage>([verdicts, &g] {
    for (std::size_t r = 0; r < verdicts->size(); ++r) {
      const Verdict& v = (*verdicts)[r];
      if (v.from < 0) continue;
      throw Error(prefix(g, CollKind::indexv) + "rank " + std::to_string(v.from) + " sends " +
                  std::to_string(v.sent) + " elements to rank " + std::to_string(r) +
                  ", which expects " + std::to_string(v.expected));
    }
  }));
}

}  // namespace ccl::detail
