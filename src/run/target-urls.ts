import type { InterfaceId } from '../checks/model.js';
import type { Settings } from '../config/settings.js';

/** The URL each interface is reached at first (preflight and watchdog). */
export function targetUrlOf(settings: Settings, iface: InterfaceId): string {
  switch (iface) {
    case 'rest-route':
      return `${settings.baseUrl}/index.php?route=shoprestapi/account/login`;
    case 'graphql':
      return `${settings.baseUrl}/index.php?route=${settings.vendor}_graphql/${settings.vendor}_graphql`;
    case 'rest-v1-network':
      return `${settings.networkApiRoot}/`;
    case 'rest-v1-shop':
      return `${settings.shopApiRoot}/products?page=1`;
  }
}
