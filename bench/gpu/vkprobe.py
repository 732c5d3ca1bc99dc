#!/usr/bin/env python3
"""Lists the Vulkan devices the Vulkan loader finds, through the same loader (libvulkan.so.1, found
as the dynamic linker finds it: LD_LIBRARY_PATH first) and the same ICDs (VK_ICD_FILENAMES, the
icd.d folders) that `spotlight --backend wgpu` uses. Standard library only (ctypes), no network.

One line per device: index, name, type, Vulkan version, driver, vendor and device ids.
Exit status: 0 at least one GPU (a Vulkan device whose type is not CPU); 3 only CPU devices
(lavapipe, SwiftShader); 4 no device; 5 no loader or the instance could not be created.

Why it matters which: burn-wgpu's automatic choice (cubecl-wgpu 0.11, `WgpuBackend::Auto`) takes
Vulkan whenever Vulkan lists a device that is not a CPU, and the high-performance one first; with
only CPU devices on Vulkan it also asks OpenGL (EGL) for a GPU. `spotlight` itself does not print the
adapter it took, so this listing is what names the device.
"""

import ctypes
import sys

VK_SUCCESS = 0
VK_INCOMPLETE = 5
TYPES = {0: "other", 1: "integrated GPU", 2: "discrete GPU", 3: "virtual GPU", 4: "CPU"}
VENDORS = {0x10DE: "NVIDIA", 0x1002: "AMD", 0x8086: "Intel", 0x10005: "Mesa (software)",
           0x1AE0: "Google (SwiftShader)", 0x13B5: "ARM", 0x5143: "Qualcomm"}


class AppInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_uint32), ("pNext", ctypes.c_void_p),
                ("pApplicationName", ctypes.c_char_p), ("applicationVersion", ctypes.c_uint32),
                ("pEngineName", ctypes.c_char_p), ("engineVersion", ctypes.c_uint32),
                ("apiVersion", ctypes.c_uint32)]


class InstanceInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_uint32), ("pNext", ctypes.c_void_p),
                ("flags", ctypes.c_uint32), ("pApplicationInfo", ctypes.POINTER(AppInfo)),
                ("enabledLayerCount", ctypes.c_uint32), ("ppEnabledLayerNames", ctypes.c_void_p),
                ("enabledExtensionCount", ctypes.c_uint32),
                ("ppEnabledExtensionNames", ctypes.c_void_p)]


class Props(ctypes.Structure):
    # VkPhysicalDeviceProperties' leading fields; the rest (limits, ...) lands in the padding.
    _fields_ = [("apiVersion", ctypes.c_uint32), ("driverVersion", ctypes.c_uint32),
                ("vendorID", ctypes.c_uint32), ("deviceID", ctypes.c_uint32),
                ("deviceType", ctypes.c_uint32), ("deviceName", ctypes.c_char * 256),
                ("pipelineCacheUUID", ctypes.c_ubyte * 16), ("_rest", ctypes.c_ubyte * 4096)]


class DriverProps(ctypes.Structure):
    # VkPhysicalDeviceDriverProperties (Vulkan 1.2).
    _fields_ = [("sType", ctypes.c_uint32), ("pNext", ctypes.c_void_p),
                ("driverID", ctypes.c_uint32), ("driverName", ctypes.c_char * 256),
                ("driverInfo", ctypes.c_char * 256), ("conformanceVersion", ctypes.c_ubyte * 4)]


class Props2(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_uint32), ("pNext", ctypes.c_void_p), ("properties", Props)]


def version(v):
    return f"{(v >> 22) & 0x7F}.{(v >> 12) & 0x3FF}.{v & 0xFFF}"


def driver_version(vendor, v):
    if vendor == 0x10DE:  # NVIDIA packs 10.8.8.6 bits
        return f"{(v >> 22) & 0x3FF}.{(v >> 14) & 0xFF}.{(v >> 6) & 0xFF}"
    return version(v)


def main():
    try:
        vk = ctypes.CDLL("libvulkan.so.1")
    except OSError as e:
        print(f"vkprobe: no Vulkan loader (libvulkan.so.1): {e}")
        return 5
    vk.vkCreateInstance.argtypes = [ctypes.POINTER(InstanceInfo), ctypes.c_void_p,
                                    ctypes.POINTER(ctypes.c_void_p)]
    vk.vkEnumeratePhysicalDevices.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32),
                                              ctypes.POINTER(ctypes.c_void_p)]
    vk.vkGetPhysicalDeviceProperties.argtypes = [ctypes.c_void_p, ctypes.POINTER(Props)]
    vk.vkGetInstanceProcAddr.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    vk.vkGetInstanceProcAddr.restype = ctypes.c_void_p
    vk.vkDestroyInstance.argtypes = [ctypes.c_void_p, ctypes.c_void_p]

    instance = ctypes.c_void_p()
    rc = None
    for api in ((1 << 22) | (2 << 12), 1 << 22):  # Vulkan 1.2, then 1.0 for an old loader
        app = AppInfo(0, None, b"spotlight-vkprobe", 1, b"none", 0, api)
        info = InstanceInfo(1, None, 0, ctypes.pointer(app), 0, None, 0, None)
        rc = vk.vkCreateInstance(ctypes.byref(info), None, ctypes.byref(instance))
        if rc == VK_SUCCESS:
            break
    if rc != VK_SUCCESS:
        # -9 VK_ERROR_INCOMPATIBLE_DRIVER: the loader found no ICD (driver) at all.
        why = " (no Vulkan driver: no ICD found)" if rc == -9 else ""
        print(f"vkprobe: vkCreateInstance failed: VkResult {rc}{why}")
        return 5

    count = ctypes.c_uint32(0)
    vk.vkEnumeratePhysicalDevices(instance, ctypes.byref(count), None)
    devices = (ctypes.c_void_p * max(count.value, 1))()
    rc = vk.vkEnumeratePhysicalDevices(instance, ctypes.byref(count), devices)
    if rc not in (VK_SUCCESS, VK_INCOMPLETE):
        print(f"vkprobe: vkEnumeratePhysicalDevices failed: VkResult {rc}")
        count.value = 0

    props2_fn = None
    addr = vk.vkGetInstanceProcAddr(instance, b"vkGetPhysicalDeviceProperties2")
    if addr:
        props2_fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(Props2))(addr)

    gpus = 0
    for i in range(count.value):
        p = Props()
        vk.vkGetPhysicalDeviceProperties(devices[i], ctypes.byref(p))
        driver = f"driver version {driver_version(p.vendorID, p.driverVersion)}"
        if props2_fn is not None and p.apiVersion >= ((1 << 22) | (2 << 12)):
            d = DriverProps(1000196000, None)
            p2 = Props2(1000059001, ctypes.cast(ctypes.pointer(d), ctypes.c_void_p))
            props2_fn(devices[i], ctypes.byref(p2))
            name = d.driverName.decode(errors="replace")
            info = d.driverInfo.decode(errors="replace")
            if name:
                driver = f"driver {name} {info}".rstrip()
        kind = TYPES.get(p.deviceType, f"type {p.deviceType}")
        vendor = VENDORS.get(p.vendorID, "")
        print(f"Vulkan device {i}: {p.deviceName.decode(errors='replace')} ({kind}), "
              f"Vulkan {version(p.apiVersion)}, {driver}, "
              f"vendor 0x{p.vendorID:04x}{' ' + vendor if vendor else ''}, device 0x{p.deviceID:04x}")
        if p.deviceType != 4:
            gpus += 1
    vk.vkDestroyInstance(instance, None)
    if count.value == 0:
        print("vkprobe: the Vulkan loader found no device")
        return 4
    return 0 if gpus else 3


if __name__ == "__main__":
    sys.exit(main())
