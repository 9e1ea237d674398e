// SPDX-License-Identifier: GPL-2.0-only
/// tifm_ms: tifm_ms_req_tasklet() is given the struct memstick_host as its
/// data and finds its struct tifm_ms, the object that holds the tasklet,
/// with memstick_priv(). The memstick host is also reachable from that
/// object: tifm_ms_probe() stores it as the socket's driver data
/// (tifm_set_drvdata(sock, msh)) and sets host->dev to the socket before it
/// sets the tasklet up, and nothing changes either until tifm_ms_remove()
/// has killed the tasklet (tifm_ms_remove() itself finds the host as
/// tifm_get_drvdata(sock)). So the tasklet is given its own struct tifm_ms,
/// and the callback finds the memstick host as
/// tifm_get_drvdata(host->dev): the same two pointers, and the callback
/// needs no data of its own.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert
//  (the data is then the container: from_work()). Both rules must match,
//  or the file is left as it was.
// Files: drivers/memstick/host/tifm_ms.c
// Options: --no-includes --include-headers

virtual patch

@probe depends on patch@
identifier fn = tifm_ms_probe;
identifier sock, msh, host, g = dev, t = notify, cb = tifm_ms_req_tasklet;
@@
fn(struct tifm_dev *sock)
{
  ...
  tifm_set_drvdata(sock, msh);
  host->g = sock;
  ...
  tasklet_init(&host->t, cb,
-	(unsigned long)msh
+	(unsigned long)host
  );
  ...
}

@callback depends on patch && probe@
identifier probe.cb, d, msh, host;
@@
cb(unsigned long d)
{
- struct memstick_host *msh = (struct memstick_host *)d;
- struct tifm_ms *host = memstick_priv(msh);
+ struct tifm_ms *host = (struct tifm_ms *)d;
+ struct memstick_host *msh = tifm_get_drvdata(host->dev);
  ...
}
