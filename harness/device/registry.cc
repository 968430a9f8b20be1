#include "backend/names.h"
#include "device/device.h"

namespace infinicts::device {
namespace {

struct FactoryTable {
  std::mutex mutex;
  std::map<int, DeviceManagerFactory> factories;
};

// The static registration of the generic factory: done when the table is first
// touched, so it precedes every lookup and every other registration whatever the
// order of static initialisation (a later RegisterFactory replaces it).
FactoryTable &Factories() {
  static FactoryTable *table = [] {
    auto *made = new FactoryTable();  // never destroyed: usable from other statics' destructors
    for (int type = 0; type < INFINI_DEVICE_TYPE_COUNT; ++type) made->factories[type] = InfiniRtDeviceManagerFactory();
    return made;
  }();
  return *table;
}

void CheckType(infiniDevice_t type) {
  if (type < 0 || type >= INFINI_DEVICE_TYPE_COUNT) {
    throw std::invalid_argument("device type " + std::to_string(static_cast<int>(type)) + " is out of range");
  }
}

}  // namespace

void DeviceManagerRegistry::RegisterFactory(infiniDevice_t type, DeviceManagerFactory factory) {
  CheckType(type);
  if (!factory) throw std::invalid_argument("empty device manager factory for " + DeviceTypeName(type));
  FactoryTable &table = Factories();
  std::lock_guard<std::mutex> lock(table.mutex);
  table.factories[type] = std::move(factory);
}

void DeviceManagerRegistry::UnregisterFactory(infiniDevice_t type) {
  CheckType(type);
  FactoryTable &table = Factories();
  std::lock_guard<std::mutex> lock(table.mutex);
  table.factories.erase(type);
}

bool DeviceManagerRegistry::HasFactory(infiniDevice_t type) {
  FactoryTable &table = Factories();
  std::lock_guard<std::mutex> lock(table.mutex);
  return table.factories.count(type) != 0;
}

DeviceManager &DeviceManagerRegistry::GetDeviceManager(infiniDevice_t type) {
  CheckType(type);
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = managers_.find(type);
  if (found != managers_.end()) return *found->second;

  DeviceManagerFactory factory;
  {
    FactoryTable &table = Factories();
    std::lock_guard<std::mutex> table_lock(table.mutex);
    auto registered = table.factories.find(type);
    if (registered == table.factories.end()) {
      throw std::invalid_argument("no device manager factory registered for " + DeviceTypeName(type));
    }
    factory = registered->second;
  }
  std::unique_ptr<DeviceManager> manager = factory(rt_, type);
  if (manager == nullptr) throw std::logic_error("the device manager factory for " + DeviceTypeName(type) + " made none");
  if (manager->type() != type) {
    throw std::logic_error("the device manager factory for " + DeviceTypeName(type) + " made a manager for " +
                           DeviceTypeName(manager->type()));
  }
  auto &slot = managers_[type];
  slot = std::move(manager);
  return *slot;
}

}  // namespace infinicts::device
