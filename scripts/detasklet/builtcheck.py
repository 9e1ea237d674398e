# SPDX-License-Identifier: GPL-2.0-only
"""python3 -m detasklet.builtcheck SRC [...]: `detasklet leftovers`, under
the name scripts/tasklet-free.sh calls it by."""

import sys

from .__main__ import main

if __name__ == "__main__":
    sys.exit(main(["leftovers", *sys.argv[1:]]))
