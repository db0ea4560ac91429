/** No request reached the target at all: exit 3, naming the URL. */
export class TargetUnreachable extends Error {
  override name = 'TargetUnreachable';
}
