// SPDX-License-Identifier: GPL-2.0-only
/// atmel_serial: atmel_startup() sets up tasklet_rx and tasklet_tx on every
/// open of the port, but atmel_serial_remove() kills them whether or not
/// the port was ever opened. They are set up once in
/// atmel_serial_probe() instead, next to the reset of tasklet_shutdown,
/// before uart_add_one_port() makes the port available to open, with the
/// same callbacks. The re-setup in atmel_startup() did nothing else: the
/// ports are the static atmel_ports[], so the tasklets outlive a close, and
/// at every open after the first they are idle with a count of zero, which
/// is what tasklet_setup() writes. atmel_shutdown(), on close and on
/// suspend, has raised tasklet_shutdown, which gates every schedule
/// (atmel_tasklet_schedule() and atmel_uart_timer_callback()), stopped the
/// timer, synchronised the interrupt and killed both, and atmel_startup()
/// clears tasklet_shutdown only with the port's interrupts still masked and
/// before it arms the timer. A rebind finds them idle too: the removal
/// before it shut the port down if it was open. Nothing schedules them
/// between probe and the first open: the interrupt, the timer and the DMA
/// callbacks are all set up by atmel_startup().
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
// Files: drivers/tty/serial/atmel_serial.c
// Options: --no-includes --include-headers

virtual patch

// Every rule below must match, or the file is left as it was.
@setup depends on patch@
identifier startup = atmel_startup;
identifier rx = tasklet_rx, tx = tasklet_tx;
identifier rxf, txf;
expression P;
@@
startup(...)
{
  ...
  tasklet_setup(&P->rx, rxf);
  tasklet_setup(&P->tx, txf);
  ...
}

@in_probe depends on patch && setup@
identifier probe = atmel_serial_probe;
identifier setup.rx, setup.tx, setup.rxf, setup.txf;
identifier sd = tasklet_shutdown;
expression P;
@@
probe(...)
{
  ...
  atomic_set(&P->sd, 0);
+ tasklet_setup(&P->rx, rxf);
+ tasklet_setup(&P->tx, txf);
  ...
}

@not_in_startup depends on patch && in_probe@
identifier setup.startup, setup.rx, setup.tx, setup.rxf, setup.txf;
expression P;
@@
startup(...)
{
  ...
- tasklet_setup(&P->rx, rxf);
- tasklet_setup(&P->tx, txf);
  ...
}
