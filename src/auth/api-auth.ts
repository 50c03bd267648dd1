/** The authentication part of an API process: advertiser keys and operators' postback secrets. */
import type { Lifecycle } from '../runtime/lifecycle.js';
import type { Logger } from '../runtime/log.js';
import type { ApiRedis } from '../store/api-redis.js';
import { AdvertiserKeys } from './advertiser-keys.js';
import { AdvertiserVault, vaultFile } from './advertiser-vault.js';
import { PostbackKeyring } from './postback-keyring.js';
import { PostbackSecrets } from './postback-secrets.js';
import { VerifiedKeys } from './verified-keys.js';

export interface ApiAuth {
  advertisers: AdvertiserKeys;
  /** Advertiser key checks with a short cache, and the registered advertiser ids. */
  verifiedKeys: VerifiedKeys;
  /** Operators' live postback secrets, in memory. */
  postbackKeyring: PostbackKeyring;
}

/** Makes the key checks; each follows Redis from its `start` on, and stops here. */
/** The settings the key checks take (config.ts). */
export interface AuthSettings {
  apiKeyPepper: string;
  advertiserKeyCacheSeconds: number;
  advertiserKeyOutageSeconds: number;
  limits: { authBlockSeconds: number };
  dataDir: string;
}

export function openAuth(life: Lifecycle, config: AuthSettings, log: Logger, redis: ApiRedis): ApiAuth {
  const advertisers = new AdvertiserKeys(redis.requestRedis, config.apiKeyPepper);
  const verifiedKeys = new VerifiedKeys(advertisers, redis.subscriber, config.advertiserKeyCacheSeconds, log, {
    outageGraceSeconds: config.advertiserKeyOutageSeconds,
    // A key seen good from an address within a block's length is never refused by that address's block.
    fromAddressSeconds: config.limits.authBlockSeconds,
    breaker: redis.breaker,
    vault: new AdvertiserVault(redis.requestRedis, vaultFile(config.dataDir), log),
  });
  life.onStop(() => verifiedKeys.stop());
  const secrets = new PostbackSecrets(redis.requestRedis, config.apiKeyPepper);
  const postbackKeyring = new PostbackKeyring(secrets, redis.subscriber, log, {
    fromAddressSeconds: config.limits.authBlockSeconds,
  });
  life.onStop(() => postbackKeyring.stop());
  return { advertisers, verifiedKeys, postbackKeyring };
}
