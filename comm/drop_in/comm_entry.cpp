#include "comm_entry.hpp"

#include <set>
#include <string>

#include "pass_through.hpp"
#include "pending.hpp"

namespace ccl::drop_in {

namespace {

int keyval = MPI_KEYVAL_INVALID;
std::set<CommEntry*> forming;  // entries still forming their group
std::set<MPI_Comm> cached;     // communicators holding an entry

// The attribute holds a shared_ptr, so that a nonblocking collective still in flight keeps the
// group after the communicator is freed.
int drop_entry(MPI_Comm comm, int, void* value, void*) {
  const InsideWrapper inside;  // the group's teardown calls MPI
  auto* holder = static_cast<std::shared_ptr<CommEntry>*>(value);
  if (holder == last_entry_holder) {
    last_entry_comm = MPI_COMM_NULL;
    last_entry_holder = nullptr;
  }
  forming.erase(holder->get());
  cached.erase(comm);
  delete holder;
  return MPI_SUCCESS;
}

}  // namespace

// entry_of()'s last find, until its communicator is freed.
MPI_Comm last_entry_comm = MPI_COMM_NULL;
std::shared_ptr<CommEntry>* last_entry_holder = nullptr;

namespace {
// The group's label in ccl's messages: the communicator's name (MPI_COMM_WORLD, or what
// MPI_Comm_set_name gave it).
std::string label_of(MPI_Comm comm) {
  char name[MPI_MAX_OBJECT_NAME] = {};
  int length = 0;
  PMPI_Comm_get_name(comm, name, &length);
  return length > 0 ? std::string(name, static_cast<std::size_t>(length)) : "MPI communicator";
}
}  // namespace

CommEntry::CommEntry(MPI_Comm comm)
    : comm_(comm), formation_(std::make_unique<GroupFormation>(comm, label_of(comm))) {
  PMPI_Comm_size(comm, &size_);
  PMPI_Comm_rank(comm, &rank_);
}

bool CommEntry::advance() {
  if (formation_ != nullptr) {
    if (!formation_->test()) return false;
    group_ = formation_->group();
    formation_.reset();
    forming.erase(this);
  }
  while (!queue_.empty()) {  // in call order: the order every member starts them in
    Pending* p = queue_.front();
    queue_.pop_front();
    p->start();
  }
  return true;
}

const Group& CommEntry::group() {
  while (!advance()) advance_everything();
  return group_;
}

EntryRef entry_of(MPI_Comm comm, const char** why_not) {
  if (keyval == MPI_KEYVAL_INVALID) {
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &drop_entry, &keyval, nullptr);
  }
  void* value = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, keyval, &value, &found);
  if (found) {
    last_entry_comm = comm;
    last_entry_holder = static_cast<std::shared_ptr<CommEntry>*>(value);
    return last_entry_holder;
  }
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) {
    *why_not = "intercommunicator";
    return nullptr;
  }
  std::shared_ptr<CommEntry> entry;
  try {
    entry = std::make_shared<CommEntry>(comm);
  } catch (const std::exception&) {
    *why_not = "communicator with processes outside MPI_COMM_WORLD";
    return nullptr;
  }
  auto* holder = new std::shared_ptr<CommEntry>(std::move(entry));
  PMPI_Comm_set_attr(comm, keyval, holder);
  forming.insert(holder->get());
  cached.insert(comm);
  return holder;
}

bool advance_entries() {
  if (forming.empty()) return false;
  const std::set<CommEntry*> now = forming;  // advance() erases from `forming`
  for (CommEntry* e : now) e->advance();
  return !forming.empty();
}

void release_entries() {
  const std::set<MPI_Comm> comms = cached;
  for (MPI_Comm c : comms) PMPI_Comm_delete_attr(c, keyval);
  if (keyval != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&keyval);
}

}  // namespace ccl::drop_in
