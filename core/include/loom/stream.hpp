// Streams and events of a device target (CUDA's), as handles that keep the native object alive.
// A default-constructed Stream means the device's default stream.
#pragma once
#include <memory>

namespace loom {

class Backend;
class Runtime;

class Event {
 public:
  Event() = default;
  void synchronize() const;                      // the host waits for the event
  float elapsed_ms(const Event& earlier) const;  // device time between two recorded events
  void* native() const { return handle_.get(); }
  bool valid() const { return handle_ != nullptr; }

 private:
  friend class Stream;
  Backend* backend_ = nullptr;
  std::shared_ptr<void> handle_;
};

class Stream {
 public:
  Stream() = default;
  void synchronize() const;         // the host waits for the work queued so far
  Event record() const;             // an event marking the work queued so far
  void wait(const Event& e) const;  // later work on this stream waits for e (the host does not)
  void* native() const { return handle_.get(); }  // cudaStream_t; null: the default stream
  int device() const { return device_; }
  bool valid() const { return backend_ != nullptr; }

 private:
  friend class Runtime;
  Backend* backend_ = nullptr;
  int device_ = 0;
  std::shared_ptr<void> handle_;
};

}  // namespace loom
