//! Where a LeNet training step's time goes on a CPU backend: each layer of the model, forward and
//! backward, timed alone at the shapes a batch of MNIST gives, in burn's own op, in the
//! alternatives Spotlight's model can be written with, and in Spotlight's own kernels
//! (spotlight-kernels, `spotlight_core::kernels`). A minimal reproduction for upstream reports
//! (burn-flex) and the measurement behind the choices in `model.rs`.
//!
//! ```text
//! cargo run --release -p spotlight-core --example lenet_ops [-- BATCH [REPEATS]]
//! ```
//!
//! Each row: the median wall time of one forward + backward (the gradient of every input that needs
//! one, read back so that nothing is left queued) over REPEATS runs after two warm-up runs.

use std::time::Instant;

use burn::tensor::module::{batch_norm_train, conv2d, max_pool2d};
use burn::tensor::ops::{ConvOptions, MaxPoolOptions};
use burn::tensor::{Device, Distribution, Tensor};
use spotlight_core::kernels;

/// The median wall time of one call, in ms (the median: this machine is shared and noisy).
fn time(repeats: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..2 {
        f();
    }
    let mut ms: Vec<f64> = (0..repeats)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    ms[ms.len() / 2]
}

fn rand<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    Tensor::random(shape, Distribution::Normal(0.0, 1.0), device)
}

/// Reads a gradient back (forces every queued op on lazy backends).
fn sink<const D: usize>(t: Option<Tensor<D>>) {
    let t = t.expect("a gradient");
    let _ = t.sum().into_data();
}

fn main() {
    let mut args = std::env::args().skip(1);
    let b: usize = args.next().map_or(128, |s| s.parse().expect("BATCH"));
    let n: usize = args.next().map_or(20, |s| s.parse().expect("REPEATS"));
    let device = Device::flex().autodiff();
    println!("burn-flex, batch {b}, {n} repeats; ms per forward + backward");
    let row = |name: &str, ms: f64| println!("{name:<48} {ms:>8.2} ms");

    for (label, cin, cout, side, pad) in
        [("conv1 1→6 5×5 pad 2, 28×28", 1, 6, 28, 2), ("conv2 6→16 5×5, 14×14", 6, 16, 14, 0)]
    {
        let x = rand([b, cin, side, side], &device);
        let w = rand([cout, cin, 5, 5], &device).require_grad();
        let bias = rand([cout], &device).require_grad();
        let need_x = cin > 1; // conv1's input is the data: no gradient
        let opts = ConvOptions::new([1, 1], [pad, pad], [1, 1], 1);
        let out_side = side + 2 * pad - 4;
        let g = rand([b, cout, out_side, out_side], &device);
        // One forward (`conv` of the input, the weight, the bias) + backward, every gradient read.
        let run = |conv: &dyn Fn(Tensor<4>, Tensor<4>, Tensor<1>) -> Tensor<4>| {
            let xi = if need_x { x.clone().require_grad() } else { x.clone() };
            let y = conv(xi.clone(), w.clone(), bias.clone());
            let grads = y.mul(g.clone()).sum().backward();
            sink(w.grad(&grads));
            sink(bias.grad(&grads));
            if need_x {
                sink(xi.grad(&grads));
            }
        };
        row(
            &format!("{label}: burn conv2d with bias"),
            time(n, || run(&|x, w, bias| conv2d(x, w, Some(bias), opts.clone()))),
        );
        row(
            &format!("{label}: burn conv2d, bias added after"),
            time(n, || {
                run(&|x, w, bias| {
                    conv2d(x, w, None, opts.clone()).add(bias.reshape([1, cout, 1, 1]))
                })
            }),
        );
        row(
            &format!("{label}: im2col (slices) + matmul"),
            time(n, || run(&|x, w, bias| im2col_conv(x, w, bias, pad))),
        );
        row(
            &format!("{label}: Spotlight's kernel, bias added after"),
            time(n, || {
                run(&|x, w, bias| {
                    kernels::conv2d(x, w, opts.clone()).add(bias.reshape([1, cout, 1, 1]))
                })
            }),
        );
    }

    {
        let x = rand([b, 1, 28, 28], &device);
        let w = rand([6, 1, 5, 5], &device).require_grad();
        let bias = rand([6], &device).require_grad();
        let g = rand([b, 6, 28, 28], &device);
        row(
            "conv1: im2col rows (NHWC) + one matmul, to NCHW",
            time(n, || {
                let y = conv1_rows(x.clone(), w.clone(), bias.clone());
                let grads = y.mul(g.clone()).sum().backward();
                sink(w.grad(&grads));
                sink(bias.grad(&grads));
            }),
        );
    }

    for (label, c, side) in [("pool 2×2 on 6×28×28", 6, 28), ("pool 2×2 on 16×10×10", 16, 10)]
    {
        let x = rand([b, c, side, side], &device);
        let g = rand([b, c, side / 2, side / 2], &device);
        let opts = MaxPoolOptions::new([2, 2]);
        let run = |pool: &dyn Fn(Tensor<4>) -> Tensor<4>| {
            let xi = x.clone().require_grad();
            let grads = pool(xi.clone()).mul(g.clone()).sum().backward();
            sink(xi.grad(&grads));
        };
        row(
            &format!("{label}: burn max_pool2d"),
            time(n, || run(&|x| max_pool2d(x, opts.clone()))),
        );
        row(
            &format!("{label}: reshape, max over the two window axes"),
            time(n, || run(&pool_reshape)),
        );
        row(&format!("{label}: max of 4 strided slices"), time(n, || run(&pool_slices)));
        row(&format!("{label}: Spotlight's kernel"), time(n, || run(&kernels::max_pool2x2)));
    }

    for (label, shape) in [("BN on 6×28×28", [b, 6, 28, 28]), ("BN on 16×10×10", [b, 16, 10, 10])]
    {
        let c = shape[1];
        let x = rand(shape, &device);
        let g = rand(shape, &device);
        let gamma = rand([c], &device).require_grad();
        let beta = rand([c], &device).require_grad();
        let run = |bn: &dyn Fn(Tensor<4>) -> Tensor<4>| {
            let xi = x.clone().require_grad();
            let grads = bn(xi.clone()).mul(g.clone()).sum().backward();
            sink(xi.grad(&grads));
            sink(gamma.grad(&grads));
        };
        row(
            &format!("{label}: burn batch_norm_train"),
            time(n, || run(&|x| batch_norm_train(x, gamma.clone(), beta.clone(), 1e-5).output)),
        );
        row(
            &format!("{label}: Spotlight's, sums along the layout"),
            time(n, || {
                run(&|x| {
                    spotlight_core::model::batch_norm_train(x, gamma.clone(), beta.clone(), 1e-5).0
                })
            }),
        );
    }
}

/// A 5×5 convolution (stride 1) as 25 shifted slices of the (padded) input stacked into columns,
/// then one matmul: `[cout, cin·25] × [b, cin·25, oh·ow]`.
fn im2col_conv(x: Tensor<4>, w: Tensor<4>, bias: Tensor<1>, pad: usize) -> Tensor<4> {
    let [b, cin, h, wd] = x.dims();
    let cout = w.dims()[0];
    let x = if pad > 0 {
        x.pad((pad, pad, pad, pad), burn::tensor::ops::PadMode::Constant(0.0))
    } else {
        x
    };
    let (oh, ow) = (h + 2 * pad - 4, wd + 2 * pad - 4);
    let mut cols = Vec::with_capacity(25);
    for i in 0..5 {
        for j in 0..5 {
            cols.push(x.clone().slice([0..b, 0..cin, i..i + oh, j..j + ow]).reshape([
                b,
                cin,
                1,
                oh * ow,
            ]));
        }
    }
    // [b, cin, 25, oh·ow] → [b, cin·25, oh·ow], in the weight's (cin, kh, kw) order.
    let cols = Tensor::cat(cols, 2).reshape([b, cin * 25, oh * ow]);
    let w = w.reshape([1, cout, cin * 25]);
    let y = w.matmul(cols).add(bias.reshape([1, cout, 1]));
    y.reshape([b, cout, oh, ow])
}

/// conv1 (1 input channel, 5×5, pad 2): the 25 shifted images as the columns of one
/// `[b·h·w, 25]` matrix, one matmul with the `[25, 6]` weight, then back to NCHW.
fn conv1_rows(x: Tensor<4>, w: Tensor<4>, bias: Tensor<1>) -> Tensor<4> {
    let [b, _, h, wd] = x.dims();
    let cout = w.dims()[0];
    let x = x.pad((2, 2, 2, 2), burn::tensor::ops::PadMode::Constant(0.0));
    let mut cols = Vec::with_capacity(25);
    for i in 0..5 {
        for j in 0..5 {
            cols.push(x.clone().slice([0..b, 0..1, i..i + h, j..j + wd]).reshape([b, h, wd, 1]));
        }
    }
    let cols: Tensor<2> = Tensor::cat(cols, 3).reshape([b * h * wd, 25]);
    let y = cols.matmul(w.reshape([cout, 25]).transpose()).add(bias.reshape([1, cout]));
    y.reshape([b, h * wd, cout]).swap_dims(1, 2).reshape([b, cout, h, wd])
}

/// 2×2 max-pooling as the elementwise max of the four strided sub-grids.
fn pool_slices(x: Tensor<4>) -> Tensor<4> {
    use burn::tensor::s;
    let a = x.clone().slice(s![.., .., 0..;2, 0..;2]);
    let b = x.clone().slice(s![.., .., 0..;2, 1..;2]);
    let c = x.clone().slice(s![.., .., 1..;2, 0..;2]);
    let d = x.slice(s![.., .., 1..;2, 1..;2]);
    a.max_pair(b).max_pair(c.max_pair(d))
}

/// 2×2 max-pooling as a reshape to `[b, c, h/2, 2, w/2, 2]` and a max over the window's axes.
fn pool_reshape(x: Tensor<4>) -> Tensor<4> {
    let [b, c, h, w] = x.dims();
    let x: Tensor<6> = x.reshape([b, c, h / 2, 2, w / 2, 2]);
    x.max_dim(5).max_dim(3).reshape([b, c, h / 2, w / 2])
}
