/** Whether an HTTP status is a success (2xx). */
export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}
