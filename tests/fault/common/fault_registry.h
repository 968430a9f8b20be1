// A wrapper's faults: each one is a name and a function that replaces, in the table of
// calls the wrapper forwards to, the calls it changes. Each interface (runtime, operators,
// collectives) keeps its own list over its own table type.
#pragma once

#include <string>
#include <vector>

namespace infinicts::fault {

template <class Table>
struct Fault {
  const char *name;
  const char *effect;               // one line, for messages and listings
  void (*install)(Table &calls);    // the calls it does not replace keep forwarding
};

// Every fault of one table, as the files that plant them registered them (INFINICTS_FAULT).
template <class Table>
std::vector<Fault<Table>> &RegisteredFaults() {
  static std::vector<Fault<Table>> faults;
  return faults;
}

template <class Table>
struct FaultRegistration {
  explicit FaultRegistration(const Fault<Table> &fault) { RegisteredFaults<Table>().push_back(fault); }
};

// Registers a fault next to the function that installs it: its name (what $INFINICTS_FAULT
// asks for), its effect in one line, and the installer.
#define INFINICTS_FAULT(Table, name, effect, install) \
  static const ::infinicts::fault::FaultRegistration<Table> fault_registration_##install({name, effect, &install})

// The target's calls with the requested faults installed, in the order they were asked for. A name
// this interface does not know belongs to another wrapper (e.g. an operator fault): the calls stay
// as they are.
template <class Table>
Table WithFaults(Table calls, const std::vector<std::string> &requested, const std::vector<Fault<Table>> &faults) {
  for (const std::string &name : requested) {
    for (const Fault<Table> &fault : faults) {
      if (name == fault.name) fault.install(calls);
    }
  }
  return calls;
}

}  // namespace infinicts::fault
