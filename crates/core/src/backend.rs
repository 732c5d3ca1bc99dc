//! The backends by name, as the CLI's `--backend` and the app's `backend=` link key spell them:
//! `ndarray`, `flex` (or `cpu`), `wgpu` (or `webgpu`; in a browser it is WebGPU).

use std::fmt;

use burn::tensor::Device;

use crate::read::ReadError;

/// A backend Spotlight can run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendName {
    /// burn-ndarray, CPU (deprecated by burn 0.22, still the project's reference CPU backend).
    Ndarray,
    /// burn-flex, burn 0.22's pure-Rust CPU backend.
    Flex,
    /// burn-wgpu: WebGPU in a browser, Vulkan/Metal/DX12 natively.
    Wgpu,
}

impl BackendName {
    pub const ALL: [BackendName; 3] = [Self::Ndarray, Self::Flex, Self::Wgpu];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ndarray => "ndarray",
            Self::Flex => "flex",
            Self::Wgpu => "wgpu",
        }
    }

    /// A name as the CLI and the link spell it; `cpu` is burn-flex and `webgpu` is wgpu. The error
    /// says what is allowed (without the key: the caller names it).
    pub fn parse(s: &str) -> Result<Self, ReadError> {
        match s {
            "cpu" => Ok(Self::Flex),
            "webgpu" => Ok(Self::Wgpu),
            _ => Self::ALL
                .into_iter()
                .find(|b| b.as_str() == s)
                .ok_or_else(|| ReadError::Allowed(Self::SPELLINGS.to_vec())),
        }
    }

    /// Every name [`BackendName::parse`] takes.
    pub const SPELLINGS: [&'static str; 5] = ["ndarray", "flex", "cpu", "wgpu", "webgpu"];

    /// Whether this build has the backend compiled in.
    pub fn compiled(self) -> bool {
        match self {
            Self::Ndarray => cfg!(feature = "ndarray"),
            Self::Flex => cfg!(feature = "flex"),
            Self::Wgpu => cfg!(any(feature = "wgpu", feature = "webgpu")),
        }
    }

    /// A CPU device of this backend (`Wgpu` needs [`native_wgpu`] or the browser's async set-up).
    #[allow(deprecated, unreachable_code)]
    pub fn cpu_device(self) -> Result<Device, String> {
        match self {
            #[cfg(feature = "ndarray")]
            Self::Ndarray => Ok(Device::ndarray()),
            #[cfg(feature = "flex")]
            Self::Flex => Ok(Device::flex()),
            other => Err(format!("backend: {other} is not built into this binary")),
        }
    }
}

impl fmt::Display for BackendName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A native wgpu device (Vulkan, Metal or DX12) and the adapter it took, in words ("NVIDIA H100
/// (Vulkan, DiscreteGpu, driver 550.54)"), or a clear error when there is no adapter. wgpu's
/// runtime starts once per process (a second `init` fails: "Service already initialized"), so the
/// first answer is kept and every later call gets the same device.
#[cfg(all(feature = "wgpu", not(target_arch = "wasm32")))]
pub fn native_wgpu() -> Result<(Device, String), String> {
    static WGPU: std::sync::OnceLock<Result<(Device, String), String>> = std::sync::OnceLock::new();
    WGPU.get_or_init(|| {
        let (device, setup) = Device::wgpu_options()
            .init_with_setup()
            .map_err(|e| format!("backend wgpu: no usable GPU adapter ({e:?})"))?;
        let i = setup.adapter.get_info();
        let driver = [i.driver.as_str(), i.driver_info.as_str()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let driver = if driver.is_empty() { String::new() } else { format!(", driver {driver}") };
        Ok((device, format!("{} ({:?}, {:?}{driver})", i.name, i.backend, i.device_type)))
    })
    .clone()
}

/// A device for a backend name, natively. Returns the device and a description for reports (on
/// wgpu, the adapter it took).
#[cfg(not(target_arch = "wasm32"))]
pub fn native_device(name: BackendName) -> Result<(Device, String), String> {
    match name {
        BackendName::Wgpu => {
            #[cfg(feature = "wgpu")]
            {
                return native_wgpu().map(|(d, adapter)| (d, format!("wgpu: {adapter}")));
            }
            #[allow(unreachable_code)]
            Err("backend wgpu: this binary was built without the `wgpu` feature (cargo build --features wgpu)".into())
        }
        cpu => cpu.cpu_device().map(|d| (d, format!("{cpu} (CPU)"))),
    }
}
