export { syncService } from './sync.service-definition';
