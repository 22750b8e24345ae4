// SmallVec<T, N>: a vector with N elements of inline storage. Shapes, strides and the per-call
// operand lists use it so that a small call does not touch the heap (dispatch overhead).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace loom {

template <class T, std::size_t N>
class SmallVec {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  SmallVec() = default;
  SmallVec(std::initializer_list<T> il) { append(il.begin(), il.end()); }
  explicit SmallVec(size_type n, const T& v = T()) { assign(n, v); }
  template <class It, class = decltype(*std::declval<It>())>
  SmallVec(It first, It last) {
    append(first, last);
  }
  SmallVec(const std::vector<T>& v) { append(v.begin(), v.end()); }  // NOLINT: interop
  SmallVec(const SmallVec& o) {
    if constexpr (std::is_trivially_copyable_v<T>) {
      if (o.size_ <= N) {  // the whole inline buffer, a fixed-size copy (no call); a heap block
        std::memcpy(buf_, o.ptr_, sizeof(buf_));  // holds more than N elements, so N are there
        size_ = o.size_;
        return;
      }
    }
    append(o.begin(), o.end());
  }
  SmallVec(SmallVec&& o) noexcept { take(std::move(o)); }
  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) {
      clear();
      append(o.begin(), o.end());
    }
    return *this;
  }
  SmallVec& operator=(SmallVec&& o) noexcept {
    if (this != &o) {
      clear();
      release();
      take(std::move(o));
    }
    return *this;
  }
  ~SmallVec() {
    clear();
    release();
  }
  operator std::vector<T>() const { return std::vector<T>(begin(), end()); }  // NOLINT

  T* data() { return ptr_; }
  const T* data() const { return ptr_; }
  size_type size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return ptr_; }
  T* end() { return ptr_ + size_; }
  const T* begin() const { return ptr_; }
  const T* end() const { return ptr_ + size_; }
  T& operator[](size_type i) { return ptr_[i]; }
  const T& operator[](size_type i) const { return ptr_[i]; }
  T& front() { return ptr_[0]; }
  const T& front() const { return ptr_[0]; }
  T& back() { return ptr_[size_ - 1]; }
  const T& back() const { return ptr_[size_ - 1]; }

  void reserve(size_type n) {
    if (n <= cap_) return;
    T* p = static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(alignof(T))));
    std::uninitialized_move(ptr_, ptr_ + size_, p);
    std::destroy(ptr_, ptr_ + size_);
    release();
    ptr_ = p;
    cap_ = n;
  }
  void push_back(const T& v) { emplace_back(v); }
  void push_back(T&& v) { emplace_back(std::move(v)); }
  template <class... A>
  T& emplace_back(A&&... a) {
    if (size_ == cap_) {
      T tmp(std::forward<A>(a)...);  // an argument may alias an element being moved
      reserve(cap_ * 2);
      return *new (ptr_ + size_++) T(std::move(tmp));
    }
    return *new (ptr_ + size_++) T(std::forward<A>(a)...);
  }
  void pop_back() { std::destroy_at(ptr_ + --size_); }
  void clear() {
    std::destroy(ptr_, ptr_ + size_);
    size_ = 0;
  }
  void resize(size_type n, const T& v = T()) {
    while (size_ > n) pop_back();
    reserve(n);
    while (size_ < n) emplace_back(v);
  }
  void assign(size_type n, const T& v) {
    clear();
    resize(n, v);
  }
  iterator insert(const_iterator pos, const T& v) {
    const size_type i = pos - ptr_;
    emplace_back(v);
    std::rotate(ptr_ + i, ptr_ + size_ - 1, ptr_ + size_);
    return ptr_ + i;
  }
  iterator erase(const_iterator pos) {
    const size_type i = pos - ptr_;
    std::move(ptr_ + i + 1, ptr_ + size_, ptr_ + i);
    pop_back();
    return ptr_ + i;
  }
  friend bool operator==(const SmallVec& a, const SmallVec& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  T* inline_ptr() { return std::launder(reinterpret_cast<T*>(buf_)); }
  template <class It>
  void append(It first, It last) {
    using Cat = typename std::iterator_traits<It>::iterator_category;
    if constexpr (std::is_base_of_v<std::random_access_iterator_tag, Cat>) {
      // One capacity check, and a memmove for shapes and pointers (copies of shapes are on
      // every call's path).
      const auto n = static_cast<size_type>(last - first);
      reserve(size_ + n);
      std::uninitialized_copy(first, last, ptr_ + size_);
      size_ += n;
    } else {
      for (; first != last; ++first) emplace_back(*first);
    }
  }
  void release() {
    if (ptr_ != inline_ptr()) ::operator delete(ptr_, std::align_val_t(alignof(T)));
    ptr_ = inline_ptr();
    cap_ = N;
  }
  void take(SmallVec&& o) {
    if (o.ptr_ != o.inline_ptr()) {  // steal the heap block
      ptr_ = o.ptr_;
      size_ = o.size_;
      cap_ = o.cap_;
      o.ptr_ = o.inline_ptr();
      o.size_ = 0;
      o.cap_ = N;
      return;
    }
    if constexpr (std::is_trivially_copyable_v<T>) {
      std::memcpy(buf_, o.buf_, sizeof(buf_));  // fixed size: no call
    } else {
      std::uninitialized_move(o.begin(), o.end(), ptr_);
    }
    size_ = o.size_;
    o.clear();
  }

  alignas(T) unsigned char buf_[N * sizeof(T)];
  T* ptr_ = inline_ptr();
  size_type size_ = 0;
  size_type cap_ = N;
};

}  // namespace loom
