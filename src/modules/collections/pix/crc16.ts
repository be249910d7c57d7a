// The BR Code's checksum (BCB, Manual de Padrões para Iniciação do Pix; EMV QRCPS-MPM 4.7.3): CRC-16/CCITT-FALSE,
// polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR, over the payload's UTF-8 bytes up to and
// including the ID and length of the CRC's own field ("6304").

const TABLE = (() => {
  const t = new Uint16Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n << 8
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff
    t[n] = c
  }
  return t
})()

/** The CRC of `bytes`, as four upper-case hex digits. */
export function crc16CcittFalse(bytes: Uint8Array): string {
  let crc = 0xffff
  for (const b of bytes) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ b) & 0xff]!
  return crc.toString(16).toUpperCase().padStart(4, '0')
}
