// ccl over MPI: the process state created by ccl::Environment, the world group, and group
// formation (explicit lists and partitions), each group with its own communicator.
#include <mpi.h>

#include <unistd.h>
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "ccl/collectives.hpp"
#include "ccl/environment.hpp"
#include "ccl/error.hpp"
#include "ccl/group.hpp"
#include "ccl/selection.hpp"
#include "diagnostics/watchdog.hpp"
#include "execution/engine.hpp"
#include "groups/group_state.hpp"
#include "groups/mpi_runtime.hpp"
#include "groups/partition.hpp"
#include "transport/mpi_channel.hpp"
#include "transport/shm/shm_fabric.hpp"

namespace ccl {

namespace {

struct MpiRuntime {
  detail::Process process;
  detail::Engine engine{false};
  MPI_Comm control = MPI_COMM_NULL;  // private duplicate used only to create group communicators
  std::unique_ptr<detail::ShmFabric> fabric;  // small messages within a node; may be null
  int world_size = 0;
  std::uint64_t tag_limit = 0;  // the largest tag a group's collectives may use
  Group world;
};

MpiRuntime* runtime_ptr = nullptr;

MpiRuntime& runtime() {
  if (runtime_ptr == nullptr) {
    throw Error("ccl: no ccl::Environment - create one at the start of main, on every process");
  }
  return *runtime_ptr;
}

Group make_group(MpiRuntime& rt, detail::NewGroup g, std::string label, MPI_Comm comm) {
  auto st = std::make_shared<detail::GroupState>();
  st->process = &rt.process;
  st->members = std::move(g.members);
  st->rank = g.rank;
  st->set_label(std::move(label));
  st->pgid = g.pgid;
  st->channel = std::make_unique<detail::MpiChannel>(comm, rt.fabric.get(), st->members, st->pgid,
                                                     rt.tag_limit);
  return Group(std::move(st));
}

// A communicator over exactly the given world ranks, in that order; collective over them only.
MPI_Comm communicator_for(MpiRuntime& rt, const std::vector<int>& members, std::uint64_t serial) {
  MPI_Group all, sub;
  MPI_Comm_group(rt.control, &all);
  MPI_Group_incl(all, static_cast<int>(members.size()), members.data(), &sub);
  MPI_Comm comm = MPI_COMM_NULL;
  const int rc = MPI_Comm_create_group(rt.control, sub, static_cast<int>(serial % 32768), &comm);
  MPI_Group_free(&sub);
  MPI_Group_free(&all);
  detail::check_mpi(rc, "MPI_Comm_create_group");
  return comm;
}

// The settings every rank must accept, checked together at start-up so that a malformed one is
// an error on every rank rather than a hang on the others.
// CCL_TAG_UB: the largest tag ccl's collectives may use is MPI_TAG_UB, or less when asked (a
// smaller tag space makes instance numbers wrap sooner; the tests use it to prove wrapping safe);
// every rank takes the smallest value any rank asked for. CCL_TIMEOUT: the watchdog's seconds.
// CCL_BARRIER: 1 or 0, the same on every rank (members in different modes would run different
// schedules). CCL_STREAM_MAX: bytes (the fabric takes the smallest any rank of a node asked for).
// CCL_STREAM_NT: auto, 0 or 1 (each sender follows its own; receivers take either way).
// CCL_DIRECT_ABOVE: bytes or "probe" (each node takes its first rank's). CCL_TORUS: the job's
// ranks laid out as a torus (dimensions such as 8x8x4, row-major), as a machine's launcher or a
// simulated platform sets it; the world group takes that layout, and sub-groups that are
// sub-tori of it inherit theirs (partition.hpp). It must name exactly the job's ranks and be the
// same on every rank (or unset everywhere).
struct AgreedSettings {
  std::uint64_t tag_limit = 0;
  std::vector<int> torus;
};

// A torus setting as three entries of the agreed array (valid, and its text's hash as its lowest
// and, negated, highest value) and its dimensions.
std::vector<int> torus_setting(int world_size, long long entries[3]) {
  const char* v = std::getenv("CCL_TORUS");
  const std::string text = v == nullptr ? "" : v;
  std::vector<int> dims = detail::parse_torus_dims(text);
  long long product = 1;
  for (const int d : dims) product *= d;
  // FNV-1a of the text, 48 bits, so that its negation fits too.
  unsigned long long hash = 14695981039346656037ull;
  for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  const long long h = text.empty() ? 0 : static_cast<long long>(hash >> 16);
  entries[0] = text.empty() || (!dims.empty() && product == world_size) ? 1 : 0;
  entries[1] = h;
  entries[2] = -h;
  return dims;
}

AgreedSettings agreed_settings(MPI_Comm control, int world_size) {
  int* mpi_ub = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &mpi_ub, &flag);
  const char* barrier = std::getenv("CCL_BARRIER");
  const long long barrier_code = barrier == nullptr || *barrier == '\0' ? 2
                                 : std::string(barrier) == "1"          ? 1
                                 : std::string(barrier) == "0"          ? 0
                                                                        : -1;
  // tag limit, CCL_TIMEOUT valid, CCL_BARRIER as its lowest and (negated) highest value,
  // CCL_STREAM_MAX valid, CCL_STREAM_NT valid, CCL_DIRECT_ABOVE valid, CCL_TORUS (three)
  long long mine[10] = {flag ? *mpi_ub : 32767, 1, barrier_code, -barrier_code, 1, 1, 1};
  AgreedSettings out;
  out.torus = torus_setting(world_size, mine + 7);
  if (const char* v = std::getenv("CCL_TAG_UB"); v != nullptr) {
    char* end = nullptr;
    const long long asked = std::strtoll(v, &end, 10);
    mine[0] = *v != '\0' && *end == '\0' && asked >= 7 ? std::min(mine[0], asked) : -1;
  }
  if (const char* v = std::getenv("CCL_TIMEOUT"); v != nullptr && !detail::valid_timeout(v))
    mine[1] = 0;
  if (!detail::ShmFabric::stream_max_setting()) mine[4] = 0;
  if (!detail::ShmFabric::store_setting()) mine[5] = 0;
  if (!detail::ShmFabric::direct_above_setting()) mine[6] = 0;
  long long agreed[10] = {};
  MPI_Allreduce(mine, agreed, 10, MPI_LONG_LONG, MPI_MIN, control);
  if (agreed[0] < 0) {
    throw Error(
        "ccl: CCL_TAG_UB must be an integer of at least 7 (at most MPI_TAG_UB is used) on every "
        "rank");
  }
  if (agreed[1] == 0) {
    throw Error(
        "ccl: CCL_TIMEOUT must be a number of seconds, at least 0 (0 turns the watchdog off), on "
        "every rank");
  }
  if (agreed[4] == 0) throw Error("ccl: CCL_STREAM_MAX must be a number of bytes on every rank");
  if (agreed[5] == 0) throw Error("ccl: CCL_STREAM_NT must be auto, 0 or 1 on every rank");
  if (agreed[6] == 0)
    throw Error("ccl: CCL_DIRECT_ABOVE must be a number of bytes or 'probe' on every rank");
  if (agreed[2] < 0 || agreed[2] != -agreed[3]) {
    throw Error("ccl: CCL_BARRIER must be 1 or 0, the same on every rank (or unset everywhere)");
  }
  if (agreed[7] == 0 || agreed[8] != -agreed[9]) {
    const char* v = std::getenv("CCL_TORUS");
    throw Error(
        "ccl: CCL_TORUS must give dimensions such as 8x8x4 whose product is the job's " +
        std::to_string(world_size) + " ranks, the same on every rank (or be unset)" +
        (v == nullptr || *v == '\0' ? std::string() : "; this rank has '" + std::string(v) + "'"));
  }
  out.tag_limit = static_cast<std::uint64_t>(agreed[0]);
  return out;
}

#if !defined(CCL_SMPI)  // (simulated ranks share no real cores)
// How the ranks of the job share cores (core_sharing()), agreed by all ranks so that they select
// alike: node-local ranks against the cores the node has online, as the shared-memory fabric
// counts them, on the node that shares most.
CoreSharing agreed_core_sharing(MPI_Comm control) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(control, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 1;
  MPI_Comm_size(node, &local);
  MPI_Comm_free(&node);
  const int mine = static_cast<int>(core_sharing_of(local, sysconf(_SC_NPROCESSORS_ONLN)));
  int most = 0;
  MPI_Allreduce(&mine, &most, 1, MPI_INT, MPI_MAX, control);
  return static_cast<CoreSharing>(most);
}
#endif

// A hang report ends the whole job, not just this rank.
void abort_job(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
}

}  // namespace

Environment::Environment(int& argc, char**& argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    MPI_Init(&argc, &argv);
    owns_mpi_ = true;
  }
  if (runtime_ptr != nullptr) throw Error("ccl: only one ccl::Environment may exist");
  auto rt = std::make_unique<MpiRuntime>();
  MPI_Comm_rank(MPI_COMM_WORLD, &rt->process.world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &rt->world_size);
  rt->process.engine = &rt->engine;
  MPI_Comm_dup(MPI_COMM_WORLD, &rt->control);
  MPI_Comm_set_errhandler(rt->control, MPI_ERRORS_RETURN);
  AgreedSettings settings = agreed_settings(rt->control, rt->world_size);
  rt->tag_limit = settings.tag_limit;
#if !defined(CCL_SMPI)
  // The calibrated choices out of the box (not on simulated platforms, whose network is not the
  // shared memory the built-in models were measured on). Every rank picks the same model, and
  // learns whether the job shares cores (not on simulated platforms either, whose ranks' cores
  // are simulated).
  use_builtin_model(rt->world_size);
  set_core_sharing(agreed_core_sharing(rt->control));
#endif
  detail::set_hang_exit(abort_job);
  rt->fabric = detail::ShmFabric::create();
#if !defined(CCL_SMPI)
  // Every rank selects alike: the least size any node's probe found, none where any found none.
  const unsigned long long found = rt->fabric ? rt->fabric->measured_direct_above() : 0;
  unsigned long long agreed = 0;
  MPI_Allreduce(&found, &agreed, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, rt->control);
  set_streams_lose_above(static_cast<std::size_t>(agreed));
#endif
  MPI_Comm world_comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &world_comm);
  detail::NewGroup w;
  w.members.resize(static_cast<std::size_t>(rt->world_size));
  std::iota(w.members.begin(), w.members.end(), 0);
  w.rank = rt->process.world_rank;
  w.pgid = Pgid{0, 0, 0};  // counters start at 1, so no other group can have this PGID
  rt->world = make_group(*rt, std::move(w), "world", world_comm);
  rt->world.state().torus = std::move(settings.torus);
  runtime_ptr = rt.release();
}

Environment::~Environment() {
  if (runtime_ptr != nullptr) {
    MPI_Comm_free(&runtime_ptr->control);
    delete runtime_ptr;
    runtime_ptr = nullptr;
  }
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owns_mpi_ && !finalized) MPI_Finalize();
}

const Statistics& statistics() {
  return runtime().process.stats;
}
void reset_statistics() {
  runtime().process.stats = Statistics{};
}

Group world() {
  return runtime().world;
}

Group group(std::span<const int> world_ranks, std::string label) {
  MpiRuntime& rt = runtime();
  detail::NewGroup g = detail::form_explicit(rt.process, world_ranks, rt.world_size);
  MPI_Comm comm = communicator_for(rt, g.members, g.pgid.serial);
  Group made = make_group(rt, std::move(g), std::move(label), comm);
  const detail::GroupState& ws = rt.world.state();
  made.state().torus = detail::inherited_torus(ws.torus, ws.members, made.state().members);
  return made;
}

Group partition(const Group& parent, int color, int key, std::string label) {
  MpiRuntime& rt = runtime();
  detail::GroupState& ps = parent.state();
  if (dynamic_cast<detail::MpiChannel*>(ps.channel.get()) == nullptr) {
    throw Error("ccl::partition: group '" + ps.label +
                "' is a simulator group; use ccl::sim::World::partition");
  }
  // The control data CCL exchanges to form the groups, with each member's counter appended:
  // it is all a member needs to know its new group and that group's PGID.
  const detail::PartitionEntry mine{color, key, rt.process.group_counter};
  std::vector<detail::PartitionEntry> all(static_cast<std::size_t>(ps.members.size()));
  concat(parent, std::span(&mine, 1), all);
  detail::NewGroup g = detail::derive_partition(all, ps.rank, ps.members);
  rt.process.group_counter += 1;
  MPI_Comm comm = communicator_for(rt, g.members, g.pgid.serial);
  if (label.empty()) label = std::to_string(color);
  Group made = make_group(rt, std::move(g), std::move(label), comm);
  made.state().torus = detail::inherited_torus(ps.torus, ps.members, made.state().members);
  return made;
}

namespace detail {

Process& mpi_process() {
  return runtime().process;
}
Engine& mpi_engine() {
  return runtime().engine;
}
Group adopt_communicator(MPI_Comm comm, NewGroup g, std::string label) {
  return make_group(runtime(), std::move(g), std::move(label), comm);
}

}  // namespace detail

}  // namespace ccl
