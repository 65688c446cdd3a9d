/**
 * What the gateway benches need from other packages, in one place. The list of reference servers is owned by the
 * private regress package, so it is reached by relative path.
 */
export {
  createGateway,
  GATEWAY_TOOLS,
  type GatewayTool,
  LazyMcp,
  type LazyMcpGateway,
} from '@dsh-harden/lazy-mcp'
export {
  REFERENCE_SERVERS,
  type ServerDescriptor,
  waitForExit,
} from '@dsh-harden/testkit/mcp-servers'
export { Client } from '@modelcontextprotocol/sdk/client/index.js'
export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

import * as DshMcpClientModule from '@deepseek-ai/dsh-mcp-client'

/** Stock DSH's MCP client plugin (`@deepseek-ai/dsh-mcp-client`): connects its one server during activation. */
export const DshMcpClient: object = DshMcpClientModule
