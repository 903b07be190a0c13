/** A writable stream stand-in that keeps what was written: for progress lines and notices. */
export function captureStream(isTTY = false): { stream: { isTTY: boolean; write(chunk: string): boolean }; text: () => string } {
  let text = "";
  return {
    stream: {
      isTTY,
      write(chunk: string): boolean {
        text += chunk;
        return true;
      },
    },
    text: () => text,
  };
}
