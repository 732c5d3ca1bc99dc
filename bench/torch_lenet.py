#!/usr/bin/env python3
"""The peer of `spotlight bench`: the same LeNet-5 (± BN after each conv and hidden FC layer, ReLU,
max-pool), the same batch sizes, one step = forward + cross-entropy + backward + Adam, on CPU.
Prints one JSON line per (bn, batch): {"bn": ..., "batch": ..., "samples_per_s": ...}.
Random inputs of MNIST's shape: throughput does not depend on the pixel values."""

import argparse
import json
import sys
import time

try:
    import torch
    import torch.nn as nn
except ImportError:
    print("torch is not installed", file=sys.stderr)
    sys.exit(3)


def lenet(bn: bool) -> nn.Module:
    def norm(c, d2):
        return (nn.BatchNorm2d(c) if d2 else nn.BatchNorm1d(c)) if bn else nn.Identity()

    return nn.Sequential(
        nn.Conv2d(1, 6, 5, padding=2), norm(6, True), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(6, 16, 5), norm(16, True), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(400, 120), norm(120, False), nn.ReLU(),
        nn.Linear(120, 84), norm(84, False), nn.ReLU(),
        nn.Linear(84, 10),
    )


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--batches", default="64,128,256")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--threads", type=int, default=0, help="intra-op threads (0: torch's default, one per core)")
    a = p.parse_args()
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    info = {"torch": torch.__version__, "threads": torch.get_num_threads()}
    for bn in (True, False):
        for batch in (int(b) for b in a.batches.split(",")):
            model = lenet(bn)
            opt = torch.optim.Adam(model.parameters(), lr=1e-3)
            loss_fn = nn.CrossEntropyLoss()
            x = torch.randn(batch, 1, 28, 28)
            y = torch.randint(0, 10, (batch,))

            def step():
                opt.zero_grad(set_to_none=True)
                loss = loss_fn(model(x), y)
                loss.backward()
                opt.step()

            for _ in range(a.warmup):
                step()
            t = time.perf_counter()
            for _ in range(a.steps):
                step()
            dt = time.perf_counter() - t
            print(json.dumps({"bn": bn, "batch": batch, "samples_per_s": batch * a.steps / dt, "info": info}), flush=True)


if __name__ == "__main__":
    main()
