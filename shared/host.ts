/*
 * What an asset or a gateway may name as its host: an IPv4 address, an IPv6 address, or a host name. Pure (no React,
 * no Node): the console's forms check it as the user types, and the server checks it again (modules/assets,
 * modules/gateways), so both refuse the same values.
 */

/** Dotted-quad IPv4, each part 0–255 without a leading zero. */
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEXTET = /^[0-9a-f]{1,4}$/i;

/** IPv6 in its text forms (RFC 4291 §2.2): eight groups, one `::` for a run of zeros, an IPv4 tail. No zone id. */
function isIPv6(value: string): boolean {
  const halves = value.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')));
  let count = groups.length;
  const last = groups.at(-1);
  if (last?.includes('.')) {
    if (!IPV4.test(last)) return false;
    groups.pop();
    count += 1; // an IPv4 tail stands for two groups
  }
  if (!groups.every((g) => HEXTET.test(g))) return false;
  return halves.length === 2 ? count <= 7 : count === 8;
}

/** A label of a host name: letters (any script: internationalised names), digits, '-' and '_' inside, at most 63. */
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}_-]{0,61}[\p{L}\p{N}])?$/u;

/**
 * Whether `value` (already trimmed) is an IP address or a host name. A name's last label may not be all digits, so
 * `999.1.1.1` or `1.1.1.1.1` (no address, and no name either) are refused; one trailing dot (a rooted name) is allowed.
 */
export function isHost(value: string): boolean {
  if (IPV4.test(value) || isIPv6(value)) return true;
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  if (name.length === 0 || name.length > 253) return false;
  const labels = name.split('.');
  return labels.every((l) => LABEL.test(l)) && !/^\d+$/.test(labels.at(-1)!);
}
